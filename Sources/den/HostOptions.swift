import ArgumentParser
import DenHost
import Foundation
import Logging

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
        "Seconds a module's builder or event handler may run before den gives up on it and closes its screen (default 30; also DEN_CALL_TIMEOUT).",
        valueName: "seconds"))
    var callTimeout: String?

    @Flag(help: ArgumentHelp(
        "Load every module at start. By default a module whose file carries a manifest is loaded only when one of its routes is first opened (also DEN_EAGER=1)."))
    var eager = false

    func validate() throws {
        if let level = resolvedLogLevelName, Logger.Level(rawValue: level) == nil {
            throw ValidationError("unknown log level '\(level)'; use debug, info, warning or error")
        }
        if let text = resolvedCallTimeout, CallTimeoutOption.parse(text) == nil {
            throw ValidationError("call timeout '\(text)' is not a number of seconds between 0.1 and 3600 (--call-timeout or DEN_CALL_TIMEOUT)")
        }
        if let dataDirectory {
            do { _ = try HostConfiguration.dataDirectory(option: dataDirectory) } catch { throw ValidationError(error.message) }
        }
        if let plugins, selectedModules?.isEmpty ?? true {
            throw ValidationError("--plugins '\(plugins)' names no module; give ids like about,main")
        }
        if pluginDirectories.contains(where: \.isEmpty) {
            throw ValidationError("--plugin-dir '' names no folder; give a path or leave the option out")
        }
    }

    /// The bundled and per-user folders count unless `--no-default-modules` or `DEN_NO_DEFAULT_MODULES=1`.
    private var usesDefaultFolders: Bool {
        let environment = ProcessInfo.processInfo.environment["DEN_NO_DEFAULT_MODULES"] ?? ""
        return !noDefaultModules && !["1", "true", "yes"].contains(environment.lowercased())
    }

    private var resolvedCallTimeout: String? {
        callTimeout ?? ProcessInfo.processInfo.environment["DEN_CALL_TIMEOUT"].flatMap { $0.isEmpty ? nil : $0 }
    }

    private var resolvedLogLevelName: String? {
        logLevel ?? ProcessInfo.processInfo.environment["DEN_LOG_LEVEL"]
    }

    var selectedModules: Set<String>? {
        plugins.map { Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }) }
    }

    /// Builds the host and loads its plugins; a broken plugin is reported, never fatal.
    func makeRuntime(eager forced: Bool = false) throws -> DenRuntime {
        LogSetup.bootstrapOnce()
        let environment = ProcessInfo.processInfo.environment
        var configuration = HostConfiguration(
            pluginDirectories: PluginDiscovery.explicitDirectories(flags: pluginDirectories, environment: environment),
            bundledDirectory: usesDefaultFolders ? InstallLayout.current?.bundledModulesDirectory : nil,
            userDirectory: usesDefaultFolders ? InstallLayout.userModulesDirectory(environment: environment) : nil,
            selectedModules: selectedModules,
            logLevel: resolvedLogLevelName.flatMap(Logger.Level.init(rawValue:)) ?? .warning)
        if let dataDirectory { configuration.dataDirectory = URL(fileURLWithPath: dataDirectory, isDirectory: true) }
        if let cacheDirectory { configuration.cacheDirectory = URL(fileURLWithPath: cacheDirectory, isDirectory: true) }
        if let timeout = resolvedCallTimeout.flatMap(CallTimeoutOption.parse) { configuration.callPolicy.timeout = timeout }
        let eagerByEnvironment = ["1", "true", "yes"].contains((environment["DEN_EAGER"] ?? "").lowercased())
        configuration.loadsLazily = !(forced || eager || eagerByEnvironment)
        let runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins() // logs every broken plugin and unreadable folder to standard error
        try SelectedModulesCheck(runtime: runtime).run()
        return runtime
    }
}

enum LogSetup {
    /// swift-log allows one bootstrap per process; logs go to standard error, screens to standard output.
    nonisolated(unsafe) private static var done = false

    static func bootstrapOnce() {
        guard !done else { return }
        done = true
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
    }
}

enum CallTimeoutOption {
    /// Seconds as typed ("30", "0.5"), within 0.1 s and one hour.
    static func parse(_ text: String) -> Duration? {
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite,
              (0.1...3600).contains(seconds) else { return nil }
        return .milliseconds(Int((seconds * 1000).rounded()))
    }
}
