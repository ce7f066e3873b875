import ArgumentParser
import DenHost
import Foundation
import Logging

/// Options every command that loads plugins shares.
struct HostOptions: ParsableArguments {
    @Option(name: .customLong("plugin-dir"), help: ArgumentHelp(
        "A folder of plugins (repeatable). Every *.so file there is loaded. Also: DEN_PLUGIN_PATH=dir1:dir2.",
        valueName: "dir"))
    var pluginDirectories: [String] = []

    @Option(name: .customLong("plugins"), help: ArgumentHelp(
        "Load only these module ids, comma-separated (e.g. about,main).", valueName: "ids"))
    var plugins: String?

    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "Where modules' data is kept (default: $DEN_DATA_DIR or ~/.local/share/den).", valueName: "dir"))
    var dataDirectory: String?

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp(
        "Where loaded plugin copies are kept (default: $DEN_CACHE_DIR or ~/.cache/den/plugins).", valueName: "dir"))
    var cacheDirectory: String?

    @Option(name: .customLong("log-level"), help: "debug, info, warning or error (also DEN_LOG_LEVEL).")
    var logLevel: String?

    func validate() throws {
        if let level = resolvedLogLevelName, Logger.Level(rawValue: level) == nil {
            throw ValidationError("unknown log level '\(level)'; use debug, info, warning or error")
        }
        if let plugins, selectedModules?.isEmpty ?? true {
            throw ValidationError("--plugins '\(plugins)' names no module; give ids like about,main")
        }
    }

    private var resolvedLogLevelName: String? {
        logLevel ?? ProcessInfo.processInfo.environment["DEN_LOG_LEVEL"]
    }

    var selectedModules: Set<String>? {
        plugins.map { Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }) }
    }

    /// Builds the host and loads its plugins; a broken plugin is reported, never fatal.
    func makeRuntime() throws -> DenRuntime {
        LogSetup.bootstrapOnce()
        let environment = ProcessInfo.processInfo.environment
        var configuration = HostConfiguration(
            pluginDirectories: PluginDiscovery.explicitDirectories(flags: pluginDirectories, environment: environment),
            selectedModules: selectedModules,
            logLevel: resolvedLogLevelName.flatMap(Logger.Level.init(rawValue:)) ?? .warning)
        if let dataDirectory { configuration.dataDirectory = URL(fileURLWithPath: dataDirectory, isDirectory: true) }
        if let cacheDirectory { configuration.cacheDirectory = URL(fileURLWithPath: cacheDirectory, isDirectory: true) }
        let runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins() // logs every broken plugin and unreadable folder to standard error
        for missing in runtime.missingSelectedModules {
            runtime.logger.warning("--plugins names '\(missing)', but no loaded plugin provides it (see `den plugins`)")
        }
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
