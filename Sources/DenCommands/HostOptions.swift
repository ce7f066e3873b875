import ArgumentParser
import DenCommandLine
import DenHost
import DenPostgresEngine
import DenSQLiteEngine
import DenSupport
import Foundation

/// Options every command that loads plugins shares.
struct HostOptions: ParsableArguments {
    @Option(name: .customLong("plugin-dir"), help: ArgumentHelp(
        "A folder of plugins (repeatable), searched after the bundled and your own modules. Every *.so file there is loaded. Also: DEN_PLUGIN_PATH=dir1:dir2.",
        valueName: "dir"))
    var pluginDirectories: [String] = []

    @Flag(name: .customLong("no-default-modules"), help: ArgumentHelp(
        "Leave out the bundled modules and ~/.local/share/den/modules; load only --plugin-dir / DEN_PLUGIN_PATH folders (also DEN_NO_DEFAULT_MODULES=1)."))
    var noDefaultModules = false

    @Option(name: .customLong("plugins"), help: ArgumentHelp(
        "Load only these module ids, comma-separated (e.g. about,main).", valueName: "ids"))
    var plugins: String?

    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "Where modules' data is kept (default: $DEN_DATA_DIR, else $XDG_DATA_HOME/den, else ~/.local/share/den).", valueName: "dir"))
    var dataDirectory: String?

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp(
        "Where loaded plugin copies are kept (default: $DEN_CACHE_DIR or ~/.cache/den/plugins).", valueName: "dir"))
    var cacheDirectory: String?

    @Option(name: .customLong("log-level"), help: "debug, info, warning or error (also DEN_LOG_LEVEL).")
    var logLevel: String?

    @Option(name: .customLong("call-timeout"), help: ArgumentHelp(
        "Seconds a module's builder or event handler may run before den gives up on it and closes its screen; den render ends with the error instead (default 30; also DEN_CALL_TIMEOUT).",
        valueName: "seconds"))
    var callTimeout: String?

    @Option(name: .customLong("slow-call-ms"), help: ArgumentHelp(
        "A module call that takes longer is logged as a warning naming the module, the route pattern and the time (default 500; also DEN_SLOW_CALL_MS).",
        valueName: "milliseconds"))
    var slowCall: String?

    @Option(name: .customLong("database"), help: ArgumentHelp(
        "Keep modules' data and browser sessions in PostgreSQL instead of the SQLite file in the data folder: postgres://user:password@host:5432/db?sslmode=require (also DEN_DATABASE_URL, or the first line of <data dir>/database-url). docs/DEPLOY.md.",
        valueName: "url"))
    var database: String?

    @Flag(help: ArgumentHelp(
        "Load every module at start. By default a module whose file carries a manifest is loaded only when one of its routes is first opened (also DEN_EAGER=1)."))
    var eager = false

    @Option(name: .customLong("isolate"), help: ArgumentHelp(
        "Run these modules each in a worker process of its own, restarted after a crash: module ids (jogs,main) or all. Repeatable.", valueName: "modules"))
    var isolate: [String] = []

    @Flag(name: .customLong("no-sandbox"), help: "Run isolated modules' workers without their sandbox (seccomp, landlock, no_new_privs).")
    var noSandbox = false
    @Option(name: .customLong("trust-policy"), help: ArgumentHelp(
        "Which modules may run, by their signature: require-signature, isolate-unsigned or allow (also DEN_TRUST_POLICY, or `den keys policy`; default: require-signature when installed, allow from a build folder; docs/SIGNING.md).",
        valueName: "policy"))
    var trustPolicy: String?

    /// The same values for `DenCommandLine`, which checks them and builds the runtime.
    var settings: HostSettings {
        var settings = HostSettings()
        settings.pluginDirectories = pluginDirectories
        settings.noDefaultModules = noDefaultModules
        settings.plugins = plugins
        settings.dataDirectory = dataDirectory
        settings.cacheDirectory = cacheDirectory
        settings.logLevel = logLevel
        settings.callTimeout = callTimeout
        settings.slowCall = slowCall
        settings.eager = eager
        settings.isolate = isolate
        settings.noSandbox = noSandbox
        settings.trustPolicy = trustPolicy
        settings.makeStorageEngine = { SQLiteStorageEngine(directory: $0) }
        return settings
    }

    func validate() throws {
        if let problem = settings.problem { throw ValidationError(problem) }
        do { _ = try databaseLocation() } catch { throw ValidationError(error.message) }
    }

    /// The PostgreSQL database named by --database, DEN_DATABASE_URL or `<data dir>/database-url`
    /// (first found); nil: SQLite in the data folder.
    func databaseLocation() throws(ServiceFailure) -> PostgresLocation? {
        guard let (url, origin) = DatabaseSetting.resolve(option: database, dataDirectory: dataDirectory) else { return nil }
        do { return try PostgresLocation(url: url) } catch { throw .invalid("\(origin): \(error.message)") }
    }

    var selectedModules: Set<String>? { settings.selectedModules }

    /// Builds the host and loads its plugins; a broken plugin is reported, never fatal.
    /// `defaultTrustPolicy`: the policy when no option, variable or file names one (`den dev`: allow).
    /// The storage a den with these options serves from: the PostgreSQL database when one is
    /// named, else the data folder's SQLite file.
    func makeStorageEngine() throws -> any StorageEngine {
        do {
            if let location = try databaseLocation() { return PostgresStorageEngine(location: location) }
        } catch {
            throw ValidationError(error.message)
        }
        return SQLiteStorageEngine(directory: settings.resolvedDataDirectory)
    }

    /// `oneShot`: a command that reads the module grants only when a call needs one, not at load
    /// (`HostConfiguration.checksGrantsAtLoad`): den render, den call, den run.
    func makeRuntime(eager forced: Bool = false, defaultTrustPolicy: TrustPolicy? = nil, oneShot: Bool = false) throws -> DenRuntime {
        var settings = self.settings
        settings.defaultTrustPolicy = defaultTrustPolicy
        settings.checksGrantsAtLoad = !oneShot
        if let location = try? databaseLocation() {
            let engine = PostgresStorageEngine(location: location)
            settings.makeStorageEngine = { _ in engine }
            settings.storageIsDataFolder = false
            // Connect and migrate now: a den older than the database's schema must not start; a
            // database that is down only delays storage (den connects again on each call).
            switch engine.prepare() {
            case .ready: break
            case .unavailable(let message):
                StandardStream.error.write("Warning: \(message)\n")
            case .refused(let message):
                StandardStream.error.write("Error: \(message)\n")
                throw ExitCode(ExitStatus.failure)
            }
        }
        let runtime = settings.makeRuntime(eager: forced)
        if let problem = SelectedModulesCheck(runtime: runtime).problem() {
            StandardStream.error.write("Error: \(problem)\n")
            throw ExitCode(ExitStatus.usage)
        }
        return runtime
    }
}
