import ArgumentParser
import DenCommandLine
import Foundation

@main
struct Den: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "den",
        abstract: "Run modular Swift apps whose screens are module plugins (.so files).",
        discussion: """
        Module folders add up, in this order: the bundled modules (installed: <prefix>/lib/den/modules; \
        in a build folder: lib<Name>Module.so beside den), your own modules \
        ($XDG_DATA_HOME/den/modules, default ~/.local/share/den/modules), then every folder named by \
        --plugin-dir or DEN_PLUGIN_PATH. --no-default-modules leaves out the first two.

        Exit status: 0 success; 1 the command failed (a route no module serves, no working plugin, \
        an unreadable folder, a damaged database); 2 `den data check` could not check; 64 a usage mistake (unknown command or option, a bad value, \
        --plugins naming a module that does not exist); 130 ended with Ctrl-C.

        `den help <command>` explains one command; `man den` once installed (Scripts/install.sh).
        """,
        version: VersionText.text,
        subcommands: [RunCommand.self, RenderCommand.self, PluginsCommand.self, RoutesCommand.self, ConfigCommand.self,
                      DataCommand.self, CacheCommand.self, UsersCommand.self, ServeCommand.self,
                      CallCommand.self, ExportsCommand.self, DevCommand.self, TopCommand.self,
                      NewModuleCommand.self, ModulesCommand.self, KeysCommand.self],
        defaultSubcommand: RunCommand.self)

    /// ArgumentParser would treat any unknown word as `den run <route>` (run is the default
    /// command), so `den plugin` opened a "Not found" screen. A bare word must name a command.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let mistake = UnknownCommand.check(arguments) {
            FileHandle.standardError.write(Data("Error: \(mistake)\n".utf8))
            Foundation.exit(ExitStatus.usage)
        }
        main(arguments)
    }
}
