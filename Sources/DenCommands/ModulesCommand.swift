import ArgumentParser
import DenCommandLine
import DenHost
import Foundation

/// `den modules install|remove`: your own modules folder ($XDG_DATA_HOME/den/modules).
struct ModulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modules",
        abstract: "Install a module file into your modules folder, remove one, or sign one.",
        discussion: "Your modules folder is $XDG_DATA_HOME/den/modules (default ~/.local/share/den/modules); every den loads what is there.",
        subcommands: [ModulesInstallCommand.self, ModulesRemoveCommand.self, ModulesReleaseCommand.self, ModulesSignCommand.self])
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

struct ModulesSignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a module file: writes <file>.minisig beside it.",
        discussion: """
        The signature is minisign's (Ed25519 over the file's BLAKE2b-512); its trusted comment names the module's \
        manifest id, version and the file's SHA-256, so a den refuses the file if any of them changes. `minisign -V -p \
        <key.pub> -m <file>` verifies it too. --print-comment prints that trusted comment, to sign with minisign instead \
        (minisign -S -s <key> -t "<comment>" -m <file>). docs/SIGNING.md.
        """)

    @Argument(help: ArgumentHelp("The module's .so file.", valueName: "file.so"))
    var file: String

    @Option(help: ArgumentHelp("The secret key: a name in <config>/keys, or a key file's path (minisign -G -W makes one too).", valueName: "key"))
    var key = "default"

    @Flag(name: .customLong("print-comment"), help: "Print the trusted comment to sign with, and sign nothing.")
    var printComment = false

    func run() throws {
        try KeysCommand.reporting { () throws(KeyRing.Failure) -> String in
            let url = URL(fileURLWithPath: file)
            if printComment { return try ModuleSigner.comment(for: url) }
            let secret = try KeysCommand.keyRing.secretKey(key)
            let signature = try ModuleSigner.sign(url, with: secret)
            return "Signed \(url.lastPathComponent) with key \(signature.keyIDText): \(ModuleTrust.signaturePath(of: url.path))\n  \(signature.trustedComment)\nShip the .minisig beside the .so; den modules install copies both."
        }
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
