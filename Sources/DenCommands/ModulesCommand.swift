import ArgumentParser
import DenCatalog
import DenCommandLine
import DenHost
import DenTrust
import DenKit
import DenPostgresEngine
import DenSQLiteEngine
import DenSupport
import DenTerminalText
import Foundation
import DenPermissions

/// `den modules install|remove`: your own modules folder ($XDG_DATA_HOME/den/modules).
struct ModulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modules",
        abstract: "Install a module file into your modules folder, remove one, grant what it asks for, or sign one.",
        discussion: """
        Your modules folder is $XDG_DATA_HOME/den/modules (default ~/.local/share/den/modules); every den loads what is there. \
        With a PostgreSQL database (--database, DEN_DATABASE_URL or <data dir>/database-url) the change is also published \
        there, and every den serve on that database follows it (docs/DEPLOY.md, "Modules across hosts").
        """,
        subcommands: [ModulesInstallCommand.self, ModulesRemoveCommand.self, ModulesGrantCommand.self, ModulesPermissionsCommand.self,
                      ModulesReleaseCommand.self, ModulesSignCommand.self, ModulesPublishCommand.self, ModulesSourcesCommand.self,
                      ModulesSearchCommand.self, ModulesInfoCommand.self, ModulesOutdatedCommand.self, ModulesUpdateCommand.self,
                      ModulesPinCommand.self, ModulesWhyCommand.self])
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
        check fails; exit status 1 then, with what is wrong and what to do. It then shows what the module asks for \
        beyond its own data (its manifest's permissions: http hosts, other modules' exports, auth, plugins) and asks; \
        --yes agrees for scripts, and a no installs nothing. The grant is kept in the data folder (or the database) \
        (docs/PERMISSIONS.md).
        """)

    @Argument(help: ArgumentHelp("The module's .so file, or a module id with an optional version range (main, main@^1.2) to install from your catalogs.", valueName: "file.so|id[@range]"))
    var file: String

    @OptionGroup var options: InstallOptions

    func run() throws {
        let request: CatalogInstall?
        do { request = try CatalogInstall.request(file) } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(ExitStatus.usage)
        }
        try options.run { install in
            guard let request else { return try install.file(URL(fileURLWithPath: file)) }
            return try install.catalog(request)
        }
    }
}

/// What `den modules install` and `update` take: where copies go, the trust policy, consent for
/// scripts, and the database every host follows.
struct InstallOptions: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Where loaded plugin copies are kept (default: $DEN_CACHE_DIR or ~/.cache/den/plugins).", valueName: "dir"))
    var cacheDirectory: String?

    @Option(name: .customLong("trust-policy"), help: ArgumentHelp(
        "Hold the file to this policy instead of the one a den started now would use: require-signature, isolate-unsigned or allow (docs/SIGNING.md).",
        valueName: "policy"))
    var trustPolicy: String?

    @Flag(help: "Agree to the permissions the module asks for without asking (for scripts).")
    var yes = false

    @Flag(help: "Install it even though a module installed now requires another version of it (that module then does not load until it is updated).")
    var force = false

    @OptionGroup var shared: SharedModulesOptions

    /// Runs `step` with an installer held to these options, printing what it did or why not.
    func run(_ step: (Installing) throws -> String) throws {
        let shelf = try shared.shelf()
        let book = PermissionBook(engine: try shared.grantStorage(), gate: PermissionGate(), recordsFirstLoad: false)
        try ModuleInstaller.reporting(cacheDirectory: cacheDirectory, trustPolicy: trustPolicy) { installer in
            try step(Installing(installer: installer, shelf: shelf, book: book, yes: yes, force: force))
        }
    }
}

/// One install command's work: a file, or a plan from the catalogs.
struct Installing {
    let installer: ModuleInstaller
    let shelf: PostgresModuleShelf?
    let book: PermissionBook
    let yes: Bool
    /// Install even a version a module installed now does not accept (`--force`).
    let force: Bool

    /// One file, as given. `planned`: the ids a catalog plan installs with it, whose new versions
    /// will accept this one.
    func file(_ file: URL, planned: Set<String> = []) throws -> String {
        let installed = try installer.install(file) { record in
            if !force { try refuseBreaking(record, planned: planned) }
            try consent(record)
        }
        guard let shelf else { return installed.description }
        let bytes: [UInt8]
        do { bytes = Array(try Data(contentsOf: installed.target)) } catch {
            throw ModuleInstaller.Failure(description: "installed here, but cannot read \(installed.target.path) to publish it: \(error.localizedDescription)")
        }
        return installed.description + "\n" + (try SharedModulesOptions.publishing(shelf, installed.id) {
            try shelf.publish(moduleID: installed.id, fileName: installed.target.lastPathComponent, version: installed.version,
                              bytes: bytes, by: ModuleSync.hostName)
        })
    }

    /// From your catalogs: every file fetched and checked first, then installed dependencies
    /// first, each as a file is (docs/CATALOG.md, "Installing by name").
    func catalog(_ request: CatalogInstall) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("den-install-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetched: [CatalogInstall.Fetched]
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            fetched = try request.prepare(into: folder, installed: CatalogInstall.installed(try installer.activeModules()),
                                          denVersion: SemanticVersion(VersionText.version)!,
                                          progress: ProgressLine(width: TerminalWidth.current(descriptor: STDERR_FILENO)))
        } catch {
            throw ModuleInstaller.Failure(description: "\(error)")
        }
        guard !fetched.isEmpty else {
            guard !request.id.isEmpty else { return "Every module is at the newest version its requirements and pins allow; nothing to do." }
            let have = (try? installer.activeModules())?.first { $0.id == request.id }.map { " \($0.version)" } ?? ""
            return "\(request.id)\(have) is installed already and fits \(request.text); nothing to do."
        }
        var done: [String] = []
        for item in fetched {
            do {
                done.append("\(item.step): " + (try file(item.file, planned: Set(fetched.map(\.step.release.id)))))
            } catch {
                // What was installed stays; the failure says where the plan stopped.
                let left = fetched.drop { $0.file != item.file }.dropFirst().map { "\($0.step)" }
                throw ModuleInstaller.Failure(description: (done + ["\(item.step) failed: \(error)"]).joined(separator: "\n")
                                                  + (left.isEmpty ? "" : "\nNot done: " + left.joined(separator: ", ")))
            }
        }
        return done.joined(separator: "\n")
    }

    /// Refuses a version that a module installed now requires another version of: at the next
    /// start that module would not load (docs/CATALOG.md, "Requirements").
    func refuseBreaking(_ record: PluginRecord, planned: Set<String>) throws {
        guard let id = record.id, let text = record.version else { return }
        let version = SemanticVersion(text)
        let needing = try installer.activeRequirements().filter { module in
            guard module.id != id, !planned.contains(module.id), let range = module.requires[id] else { return false }
            return version.map { (try? VersionRequirement(parsing: range))?.isSatisfied(by: $0) ?? false } != true
        }
        guard !needing.isEmpty else { return }
        let who = needing.map { "\($0.id) \($0.version)" }.joined(separator: ", ")
        let why = needing.map { "\($0.id) requires \(id) \($0.requires[id] ?? "")" }.joined(separator: "; ")
        throw ModuleInstaller.Failure(description: "\(id) \(text) would stop \(who) from loading (\(why)). Update \(needing.map(\.id).joined(separator: ", ")) too (den modules update brings versions that fit together from your catalogs), or use --force to install \(id) \(text) anyway; nothing was installed")
    }

    /// Shows what the module asks for beyond what it was granted, asks, and records the grant;
    /// throws (nothing installed) on a no, or when the grants cannot be read or written.
    func consent(_ record: PluginRecord) throws {
        guard let id = record.id else { return }
        let asked = record.permissions ?? .nothing
        let version = record.version ?? ""
        let existing: ModuleGrant?
        do { existing = try book.grant(of: id) } catch {
            throw ModuleInstaller.Failure(description: "cannot read the module grants (\(error.message)); nothing was installed")
        }
        let beyond = asked.beyond(existing?.permissions ?? .nothing)
        if !beyond.isEmpty {
            let title = existing.map { "\(id) \(version) asks for more than \($0.version) was granted:" } ?? "\(id) \(version) asks to:"
            try GrantTools.agree(title, beyond.lines, yes: yes, declined: "Nothing was installed.")
        }
        let grant = ModuleGrant(permissions: asked, addedHosts: existing?.addedHosts ?? [], version: version, how: "install",
                                at: UTCTime.iso8601(Date()))
        do { try book.record(grant, of: id) } catch {
            throw ModuleInstaller.Failure(description: "cannot write the module grant (\(error.message)); nothing was installed")
        }
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

    @Option(name: .customLong("trust-policy"), help: ArgumentHelp(
        "Hold the file to this policy instead of the one a den started now would use: require-signature, isolate-unsigned or allow (docs/SIGNING.md).",
        valueName: "policy"))
    var trustPolicy: String?

    @Flag(help: "Remove it even though other modules require it (they will not find it).")
    var force = false

    @OptionGroup var shared: SharedModulesOptions

    func run() throws {
        let shelf = try shared.shelf()
        let book = PermissionBook(engine: try shared.grantStorage(), gate: PermissionGate(), recordsFirstLoad: false)
        try ModuleInstaller.reporting(cacheDirectory: cacheDirectory, trustPolicy: trustPolicy) { installer in
            if !force {
                let needing = try installer.activeRequirements().filter { $0.id != id && $0.requires[id] != nil }
                guard needing.isEmpty else {
                    let who = needing.map { "\($0.id) \($0.version) (\(id) \($0.requires[id] ?? ""))" }.joined(separator: ", ")
                    throw ModuleInstaller.Failure(description: "\(id) is required by \(who); remove \(needing.count == 1 ? "that module" : "those modules") first, or --force to remove \(id) anyway")
                }
            }
            let removed = try remove(installer, shelf: shelf)
            // A module installed again is asked about again, as a new one.
            let forgotten = (try? book.forget(id)) == true ? "\nIts grant of permissions is withdrawn: installing it again asks again." : ""
            return removed + forgotten
        }
    }

    private func remove(_ installer: ModuleInstaller, shelf: PostgresModuleShelf?) throws -> String {
        guard let shelf else { return try installer.remove(id: id) }
        // Withdrawn from the database even when this host's folder lacks it: another host may hold it.
        let local = Result(catching: { try installer.remove(id: id) })
        let withdrawn = try SharedModulesOptions.publishing(shelf, id) { try shelf.withdraw(moduleID: id, by: ModuleSync.hostName) }
        switch local {
        case .success(let text): return text + "\n" + withdrawn
        case .failure(let error) where withdrawn.hasPrefix("Published"): return "\(error)\n" + withdrawn
        case .failure(let error): throw error
        }
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

struct ModulesPublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Add a module file to a catalog folder and sign it: den modules publish <file.so> --to <dir>.",
        discussion: """
        Copies the file to <dir>/files/<id>/<id>-<version>.so and signs it (as den modules sign does), adds the version         to <dir>/index.json with the file's SHA-256, size and manifest (id, version, summary, permissions), raises the         index's serial by one and signs the index (index.json.minisig, trusted comment den-catalog serial=<n>). The folder         is plain files: any web server, file share or USB stick can hold it. A version already in the catalog is refused         (a published version never changes), and so is a catalog signed by another key. docs/CATALOG.md.
        """)

    @Argument(help: ArgumentHelp("The module's .so file.", valueName: "file.so"))
    var file: String

    @Option(help: ArgumentHelp("The catalog folder (made when missing).", valueName: "dir"))
    var to: String

    @Option(help: ArgumentHelp("The secret key that signs the catalog: a name in <config>/keys, or a key file's path.", valueName: "key"))
    var key = "default"

    func run() throws {
        let secret: Minisign.SecretKey
        do { secret = try KeysCommand.keyRing.secretKey(key) } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
        let folder = URL(fileURLWithPath: to, isDirectory: true)
        do {
            let published = try CatalogPublisher(folder: folder, key: secret).publish(URL(fileURLWithPath: file))
            print("Published \(published.id) \(published.version) to \(folder.path) (index serial \(published.serial)): \(published.file), signed with key \(secret.publicKeyValue.keyIDText)")
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
    }
}

extension ModuleInstaller {
    /// Runs one installer step for the command line: prints what it did, or its failure on
    /// standard error with exit status 1.
    static func reporting(cacheDirectory: String?, trustPolicy: String? = nil, _ step: (ModuleInstaller) throws -> String) throws {
        let installer = ModuleInstaller(environment: ProcessInfo.processInfo.environment,
                                        cacheDirectory: cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) },
                                        trustPolicy: trustPolicy)
        do {
            print(try step(installer))
        } catch let failure as ModuleInstaller.Failure {
            let logged = failure.moduleLog.isEmpty ? "" : "The module logged while it loaded:\n" + failure.moduleLog.map { "  \($0)\n" }.joined()
            FileHandle.standardError.write(Data("\(logged)Error: \(failure)\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
    }
}

/// `--database` of `den modules`: where the module is also published for the other hosts.
struct SharedModulesOptions: ParsableArguments {
    @Option(name: .customLong("database"), help: ArgumentHelp(
        "Also publish the change in this PostgreSQL database, for every den serve on it (default: DEN_DATABASE_URL, or the first line of <data dir>/database-url).",
        valueName: "postgres://…"))
    var database: String?

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("The data folder whose database-url to read (default: $DEN_DATA_DIR).", valueName: "dir"))
    var dataDirectory: String?

    func shelf() throws -> PostgresModuleShelf? {
        guard let location = try databaseLocation() else { return nil }
        return PostgresModuleShelf(engine: PostgresStorageEngine(location: location))
    }

    /// Where grants are kept: the database when one is named, else the data folder's SQLite file.
    func grantStorage() throws -> any StorageEngine {
        if let location = try databaseLocation() { return PostgresStorageEngine(location: location) }
        var folder = HostConfiguration.defaultDataDirectory()
        if let dataDirectory {
            do { folder = try HostConfiguration.dataDirectory(option: dataDirectory) } catch { throw ValidationError(error.message) }
        }
        return SQLiteStorageEngine(directory: folder)
    }

    func databaseLocation() throws -> PostgresLocation? {
        guard let (url, origin) = DatabaseSetting.resolve(option: database, dataDirectory: dataDirectory) else { return nil }
        do { return try PostgresLocation(url: url) } catch { throw ValidationError("\(origin): \(error.message)") }
    }

    /// Runs one publishing step; returns the line to print, or a failure saying the local change stands.
    static func publishing(_ shelf: PostgresModuleShelf, _ id: String, _ step: () throws -> Bool) throws -> String {
        do {
            let changed = try step()
            return changed
                ? "Published the change to \(shelf.engine.location): every den serve on that database follows it."
                : "\(shelf.engine.location) already had this; nothing to publish."
        } catch {
            let reason = (error as? ServiceFailure)?.message ?? "\(error)."
            throw ModuleInstaller.Failure(description: "the change is made in this host's modules folder, but could not be published for the other hosts: \(reason) Run the same command again once the database answers.")
        }
    }
}
