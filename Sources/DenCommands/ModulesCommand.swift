import ArgumentParser
import DenCommandLine
import DenHost
import Foundation

/// `den modules install|remove`: your own modules folder ($XDG_DATA_HOME/den/modules).
struct ModulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modules",
        abstract: "Install a module file into your modules folder, or remove one.",
        discussion: "Your modules folder is $XDG_DATA_HOME/den/modules (default ~/.local/share/den/modules); every den loads what is there.",
        subcommands: [ModulesInstallCommand.self, ModulesRemoveCommand.self, ModulesReleaseCommand.self])
}

struct ModulesInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Check a module file and copy it into your modules folder.",
        discussion: """
        Checks the file first: a library for this machine, this den's ABI version and (Swift) toolchain, a valid \
        manifest, and that it loads beside the modules you have (no duplicate id, no route conflict, a registration \
        that matches its manifest). It loads the installed modules and the new one to check this, as `den plugins` \
        does. A module with the same id already in your folder is replaced (an upgrade). Nothing is copied when a \
        check fails; exit status 1 then, with what is wrong and what to do.
        """)

    @Argument(help: ArgumentHelp("The module's .so file.", valueName: "file.so"))
    var file: String

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Where loaded plugin copies are kept (default: $DEN_CACHE_DIR or ~/.cache/den/plugins).", valueName: "dir"))
    var cacheDirectory: String?

    func run() throws {
        try ModuleInstaller.reporting(cacheDirectory: cacheDirectory) { try $0.install(URL(fileURLWithPath: file)) }
    }
}

struct ModulesRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove the module with this id from your modules folder.",
        discussion: "A running den keeps what it loaded; the next start goes without the module. Its data stays in storage.")

    @Argument(help: ArgumentHelp("The module id (as `den plugins` lists it).", valueName: "id"))
    var id: String

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Where loaded plugin copies are kept (default: $DEN_CACHE_DIR or ~/.cache/den/plugins).", valueName: "dir"))
    var cacheDirectory: String?

    func run() throws {
        try ModuleInstaller.reporting(cacheDirectory: cacheDirectory) { try $0.remove(id: id) }
    }
}

extension ModuleInstaller {
    /// Runs one installer step for the command line: prints what it did, or its failure on
    /// standard error with exit status 1.
    static func reporting(cacheDirectory: String?, _ step: (ModuleInstaller) throws -> String) throws {
        let installer = ModuleInstaller(environment: ProcessInfo.processInfo.environment,
                                        cacheDirectory: cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) })
        do {
            print(try step(installer))
        } catch let failure as ModuleInstaller.Failure {
            let logged = failure.moduleLog.isEmpty ? "" : "The module logged while it loaded:\n" + failure.moduleLog.map { "  \($0)\n" }.joined()
            FileHandle.standardError.write(Data("\(logged)Error: \(failure)\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
    }
}
