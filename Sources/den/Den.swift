import ArgumentParser

@main
struct Den: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "den",
        abstract: "Run modular Swift apps whose screens are module plugins (.so files).",
        discussion: """
        Plugins are found in the folders named by --plugin-dir or DEN_PLUGIN_PATH, or, when none is \
        named, beside the den executable (the bundled modules: lib<Name>Module.so).
        """,
        subcommands: [RunCommand.self, RenderCommand.self, PluginsCommand.self, RoutesCommand.self, ConfigCommand.self, DataCommand.self],
        defaultSubcommand: RunCommand.self)
}
