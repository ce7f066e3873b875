import DenIsolation
import DenLibraryClients
import DenLibraryContracts
import DenHost
import DenSupport
import DenTrust
import DenKit
import DenTerminalText
import FoundationEssentials
import Logging
#if canImport(Glibc)
import Glibc
import DenModuleFiles
#endif

/// The options every command that loads plugins shares (`--plugin-dir`, `--plugins`, …) and the
/// environment variables behind them: checked, then turned into a loaded `DenRuntime`. The full
/// command line (`den-commands`'s `HostOptions`) and `den render`'s fast path both fill one in, so
/// both mean the same by every option.
package struct HostSettings: Sendable {
    package var pluginDirectories: [String] = []
    package var noDefaultModules = false
    /// `--plugins about,main`, as typed.
    package var plugins: String?
    package var dataDirectory: String?
    package var cacheDirectory: String?
    package var logLevel: String?
    /// `--call-timeout`, as typed.
    package var callTimeout: String?
    package var slowCall: String?
    package var eager = false
    /// `--isolate jogs,main` or `--isolate all`, each as typed (docs/ISOLATION.md).
    package var isolate: [String] = []
    /// `--no-sandbox`: isolated workers run without their sandbox.
    package var noSandbox = false
    /// `--trust-policy`, as typed.
    package var trustPolicy: String?
    /// The policy when nothing names one (`den dev`: allow); nil: by how den is installed.
    package var defaultTrustPolicy: TrustPolicy?
    /// The `DEN_` and `XDG_` variables (`ProcessEnvironment.hostVariables()`): all it reads.
    package var environment: [String: String]
    /// The storage engine for a data folder; nil keeps the runtime's default, SQLite through
    /// `libDenSQLiteStorage.so`. `den-commands`, which links the engine anyway, uses it directly.
    package var makeStorageEngine: (@Sendable (URL) -> any StorageEngine)?
    /// See `HostConfiguration.checksGrantsAtLoad`; off for one-shot commands.
    package var checksGrantsAtLoad = true
    /// Storage is the data folder's SQLite file (not PostgreSQL): its grants may be cached beside it.
    package var storageIsDataFolder = true

    package init(environment: [String: String] = ProcessEnvironment.hostVariables()) {
        self.environment = environment
    }

    /// What is wrong with the values, as a usage error says it; nil when every value is usable.
    package var problem: String? {
        if let level = resolvedLogLevelName, Logger.Level(rawValue: level) == nil {
            return "unknown log level '\(level)'; use debug, info, warning or error"
        }
        if let text = resolvedCallTimeout, CallTimeoutOption.parse(text) == nil {
            return "call timeout '\(text)' is not a number of seconds between 0.1 and 3600 (--call-timeout or DEN_CALL_TIMEOUT)"
        }
        if let text = resolvedSlowCall, SlowCallOption.parse(text) == nil {
            return "slow call '\(text)' is not a number of milliseconds between 1 and 3600000 (--slow-call-ms or DEN_SLOW_CALL_MS)"
        }
        if let dataDirectory {
            do { _ = try HostConfiguration.dataDirectory(option: dataDirectory) } catch { return error.message }
        }
        if let plugins, selectedModules?.isEmpty ?? true {
            return "--plugins '\(plugins)' names no module; give ids like about,main"
        }
        if isolate.contains(where: { $0.trimmingWhitespace().isEmpty }) || (!isolate.isEmpty && isolatedModules.isEmpty && !isolatesAll) {
            return "--isolate '' names no module; give module ids like jogs,main, or all"
        }
        if case .failure(let problem) = resolvedTrustPolicy { return problem.description }
        if pluginDirectories.contains(where: \.isEmpty) {
            return "--plugin-dir '' names no folder; give a path or leave the option out"
        }
        return nil
    }

    /// The bundled and per-user folders count unless `--no-default-modules` or `DEN_NO_DEFAULT_MODULES=1`.
    private var usesDefaultFolders: Bool {
        !noDefaultModules && !Self.isOn(environment["DEN_NO_DEFAULT_MODULES"])
    }

    private var resolvedCallTimeout: String? {
        callTimeout ?? environment["DEN_CALL_TIMEOUT"].flatMap { $0.isEmpty ? nil : $0 }
    }

    private var resolvedSlowCall: String? {
        slowCall ?? environment["DEN_SLOW_CALL_MS"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The trust policy and where it came from (TrustPolicySetting).
    package var resolvedTrustPolicy: Result<(TrustPolicy, String), TrustPolicySetting.Problem> {
        TrustPolicySetting.resolve(option: trustPolicy, environment: environment, fallback: defaultTrustPolicy)
    }

    private var resolvedLogLevelName: String? {
        logLevel ?? environment["DEN_LOG_LEVEL"]
    }

    /// The module ids `--isolate` names.
    package var isolatedModules: Set<String> {
        Set(isolate.flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace().lowercased() }.filter { !$0.isEmpty && $0 != "all" })
    }

    package var isolatesAll: Bool {
        isolate.flatMap { $0.split(separator: ",") }.contains { $0.trimmingWhitespace().lowercased() == "all" }
    }

    package var selectedModules: Set<String>? {
        plugins.map { Set($0.split(separator: ",").map { $0.trimmingWhitespace().lowercased() }.filter { !$0.isEmpty }) }
    }

    private static func isOn(_ value: String?) -> Bool {
        ["1", "true", "yes"].contains((value ?? "").lowercased())
    }

    /// The trust policy and lists these settings name (`den plugins --inspect` judges a file by them).
    package func moduleTrust(cacheDirectory: URL? = nil) -> ModuleTrust {
        // `problem` refused a bad policy name before this; a den never runs without a policy.
        let policy = (try? resolvedTrustPolicy.get().0) ?? .requireSignature
        let cache = cacheDirectory ?? self.cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? PluginCache.defaultDirectory(environment: environment)
        return ModuleTrust(policy: policy, trustFiles: TrustPolicySetting.trustFiles(environment: environment), cacheDirectory: cache)
    }

    /// The folders a den with these settings loads modules from.
    package var discovery: PluginDiscovery {
        PluginDiscovery(explicitDirectories: PluginDiscovery.explicitDirectories(flags: pluginDirectories, environment: environment),
                        bundledDirectory: usesDefaultFolders ? InstallLayout.current?.bundledModulesDirectory : nil,
                        userDirectory: usesDefaultFolders ? InstallLayout.userModulesDirectory(environment: environment) : nil)
    }

    /// The data folder a den with these settings keeps its data in.
    package var resolvedDataDirectory: URL {
        dataDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? HostConfiguration.defaultDataDirectory(environment: environment)
    }

    /// Builds the host and loads its plugins; a broken plugin is reported (on standard error),
    /// never fatal. `eager` loads every module whatever the options say (`den plugins`).
    package func makeRuntime(eager forced: Bool = false) -> DenRuntime {
        LogSetup.bootstrapOnce()
        var configuration = HostConfiguration(
            pluginDirectories: PluginDiscovery.explicitDirectories(flags: pluginDirectories, environment: environment),
            bundledDirectory: usesDefaultFolders ? InstallLayout.current?.bundledModulesDirectory : nil,
            userDirectory: usesDefaultFolders ? InstallLayout.userModulesDirectory(environment: environment) : nil,
            selectedModules: selectedModules,
            cacheDirectory: PluginCache.defaultDirectory(environment: environment),
            dataDirectory: HostConfiguration.defaultDataDirectory(environment: environment),
            logLevel: resolvedLogLevelName.flatMap(Logger.Level.init(rawValue:)) ?? .warning)
        if let dataDirectory { configuration.dataDirectory = URL(fileURLWithPath: dataDirectory, isDirectory: true) }
        if let cacheDirectory { configuration.cacheDirectory = URL(fileURLWithPath: cacheDirectory, isDirectory: true) }
        if let timeout = resolvedCallTimeout.flatMap(CallTimeoutOption.parse) { configuration.callPolicy.timeout = timeout }
        if let slow = resolvedSlowCall.flatMap(SlowCallOption.parse) { configuration.callPolicy.slowWarning = slow }
        if let makeStorageEngine { configuration.makeStorageEngine = makeStorageEngine }
        configuration.loadsLazily = !(forced || eager || Self.isOn(environment["DEN_EAGER"]))
        configuration.checksGrantsAtLoad = checksGrantsAtLoad
        configuration.keepsGrantsCache = storageIsDataFolder
        configuration.hosting.isolateAll = isolatesAll
        configuration.hosting.isolated = isolatedModules
        configuration.hosting.sandbox = !noSandbox
        configuration.hosting.configured = HostingSettings.configured(in: configuration.dataDirectory)
        configuration.trust = moduleTrust(cacheDirectory: configuration.cacheDirectory)
        configuration.useWorkerIsolation()
        let runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins() // logs every broken plugin and unreadable folder to standard error
        return runtime
    }
}

package enum LogSetup {
    /// swift-log allows one bootstrap per process; logs go to standard error, screens to standard output.
    nonisolated(unsafe) private static var done = false

    package static func bootstrapOnce() {
        guard !done else { return }
        done = true
        LoggingSystem.bootstrap { label in TerminalLogHandler(label: label) }
    }
}

/// Log lines on standard error, as swift-log's stream handler writes them, but wrapped at word
/// boundaries when a terminal (or `COLUMNS`) gives a width.
package struct TerminalLogHandler: LogHandler {
    let label: String
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let line = "\(Self.timestamp()) \(event.level) \(label) :\(fields) [\(event.source)] \(event.message)"
        let descriptor = LogFile.descriptor
        if event.level >= .warning { LogFile.countProblem() }
        var text = (descriptor == STDERR_FILENO ? TerminalText.messageLines(line, width: TerminalWidth.stated(descriptor: STDERR_FILENO)) : line) + "\n"
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// As swift-log's stream handler writes it: 2026-01-02T10:11:12+0000.
    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [Int8](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

package enum SlowCallOption {
    /// Whole milliseconds as typed ("500"), within 1 ms and an hour.
    package static func parse(_ text: String) -> Duration? {
        guard let milliseconds = Int(text.trimmingWhitespace()), (1...3_600_000).contains(milliseconds) else { return nil }
        return .milliseconds(milliseconds)
    }
}

package enum CallTimeoutOption {
    /// Seconds as typed ("30", "0.5"), within 0.1 s and one hour.
    package static func parse(_ text: String) -> Duration? {
        guard let seconds = Double(text.trimmingWhitespace()), seconds.isFinite,
              (0.1...3600).contains(seconds) else { return nil }
        return .milliseconds(Int((seconds * 1000).rounded()))
    }
}
