import ArgumentParser
import DenCommandLine
import DenHost
import DenHotSwap
import DenMetrics
import DenPostgresEngine
import DenTracing
import DenWeb
import Foundation
import Synchronization
import DenPermissions

/// `den serve`: the app in a browser. The same plugins as `den run`, drawn as web pages.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the app to a browser: den serve, then open the printed http://127.0.0.1:8080.",
        discussion: """
        Binds 127.0.0.1 unless --host says otherwise (binding another address is logged as a \
        warning: anyone who can connect gets every screen). --port 0 picks a free port; the \
        address is printed once den listens. Ctrl-C or SIGTERM stops it. docs/WEB.md explains \
        sessions, cookies, limits and --trust-proxy.
        """)

    @OptionGroup var serve: ServeOptions

    func run() throws {
        try serve.serve(events: serve.watching.watch ? DevEvents() : nil)
    }
}

/// What `den serve` takes, and serving with it; `den dev` takes the same. Arguments, not a
/// command, so that `den dev`'s usage line is its own ("den dev <options>").
struct ServeOptions: ParsableArguments {
    @OptionGroup var options: HostOptions

    @OptionGroup var watching: WatchOptions

    @Option(name: .customLong("host"), help: ArgumentHelp("The address to listen on (default 127.0.0.1: this machine only).", valueName: "address"))
    var address = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on (default 8080; 0 picks a free one).", valueName: "port"))
    var port = 8080

    @Flag(name: .customLong("trust-proxy"), help: "Believe X-Forwarded-Proto: https from a TLS proxy in front of den, and then mark the session cookie Secure.")
    var trustProxy = false

    @Option(name: .customLong("session-minutes"), help: ArgumentHelp("Minutes a browser session may stay unused before it ends, logging it out (default 30).", valueName: "minutes"))
    var sessionMinutes = 30

    @Option(name: .customLong("max-sessions"), help: ArgumentHelp("The most browser sessions kept at once; past it the longest unused one ends (default 1000).", valueName: "count"))
    var maxSessions = 1000

    @Option(name: .customLong("max-sessions-per-account"), help: ArgumentHelp("The most browser sessions logged in to one account; a login past it ends that account's longest unused one (default 10).", valueName: "count"))
    var maxSessionsPerAccount = 10

    @Option(name: .customLong("max-connections"), help: ArgumentHelp("The most open connections; one more is answered 503 at once (default 10000, lowered to what the descriptor limit allows).", valueName: "count"))
    var maxConnections = 10_000

    @Option(name: .customLong("metrics"), help: ArgumentHelp("Serve Prometheus metrics at http://ADDRESS/metrics, on an address of its own (e.g. 127.0.0.1:9464; also DEN_METRICS, or `den config set den.app metrics …`). docs/OBSERVABILITY.md.", valueName: "address"))
    var metrics: String?

    @Option(name: .customLong("otlp-endpoint"), help: ArgumentHelp("Send a span of every request, module call and service call to this OTLP/HTTP receiver (e.g. http://127.0.0.1:4318; also DEN_OTLP_ENDPOINT). Off by default. docs/OBSERVABILITY.md.", valueName: "url"))
    var otlpEndpoint: String?

    @Option(name: .customLong("module-check-seconds"), help: ArgumentHelp("On PostgreSQL: seconds between checks for modules installed or removed on other hosts, besides their notifications (default 30). docs/DEPLOY.md.", valueName: "seconds"))
    var moduleCheckSeconds = 30.0

    func validate() throws {
        guard moduleCheckSeconds >= 0.1, moduleCheckSeconds <= 86_400 else { throw ValidationError("--module-check-seconds \(moduleCheckSeconds) must be 0.1 to 86400 (a day)") }
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not a port; use 1 to 65535, or 0 for a free one") }
        guard !address.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--host '' names no address; leave it out to listen on 127.0.0.1") }
        guard (1...10_080).contains(sessionMinutes) else { throw ValidationError("--session-minutes \(sessionMinutes) must be 1 to 10080 (a week)") }
        guard (1...1_000_000).contains(maxSessions) else { throw ValidationError("--max-sessions \(maxSessions) must be 1 to 1000000") }
        guard (1...1_000_000).contains(maxSessionsPerAccount) else { throw ValidationError("--max-sessions-per-account \(maxSessionsPerAccount) must be 1 to 1000000") }
        guard (1...1_000_000).contains(maxConnections) else { throw ValidationError("--max-connections \(maxConnections) must be 1 to 1000000") }
        if let metrics, case .failure(let problem) = MetricsAddress.parse(metrics) { throw ValidationError("--metrics \(problem)") }
        if let otlpEndpoint, case .failure(let problem) = OTLPEndpoint.parse(otlpEndpoint) { throw ValidationError("--otlp-endpoint \(problem)") }
    }

    /// `--otlp-endpoint`, else DEN_OTLP_ENDPOINT; nil (no tracing) when neither is set. A bad
    /// value from the environment stops den serve with the reason.
    func traceEndpoint() throws -> OTLPEndpoint? {
        let environment = ProcessInfo.processInfo.environment["DEN_OTLP_ENDPOINT"].flatMap { $0.isEmpty ? nil : $0 }
        guard let text = otlpEndpoint ?? environment else { return nil }
        switch OTLPEndpoint.parse(text) {
        case .success(let endpoint): return endpoint
        case .failure(let problem):
            FileHandle.standardError.write(Data("Error: \(otlpEndpoint == nil ? "DEN_OTLP_ENDPOINT" : "--otlp-endpoint") \(problem)\n".utf8))
            throw ExitCode(ExitStatus.usage)
        }
    }

    /// `--metrics`, else DEN_METRICS, else `den config set den.app metrics`; nil when none is set.
    /// A bad value from the environment or the setting stops den serve with the reason.
    func metricsAddress(_ runtime: DenRuntime) throws -> MetricsAddress? {
        let environment = ProcessInfo.processInfo.environment["DEN_METRICS"].flatMap { $0.isEmpty ? nil : $0 }
        let (text, source): (String?, String) = if let metrics { (metrics, "--metrics") }
            else if let environment { (environment, "DEN_METRICS") }
            else { (AppSettingDefinitions.metricsAddress(engine: runtime.storage), "den.app metrics") }
        guard let text else { return nil }
        switch MetricsAddress.parse(text) {
        case .success(let address): return address
        case .failure(let problem):
            FileHandle.standardError.write(Data("Error: \(source) \(problem)\n".utf8))
            throw ExitCode(ExitStatus.usage)
        }
    }

    /// Serves; with `events` (`--watch`, `den dev`) it also hot-swaps changed plugins and tells the pages.
    func serve(events: DevEvents?, defaultTrustPolicy: TrustPolicy? = nil, whenListening: @escaping @Sendable () -> Void = {}) throws {
        let runtime = try options.makeRuntime(defaultTrustPolicy: defaultTrustPolicy)
        var configuration = WebConfiguration(
            host: address, port: port, trustProxy: trustProxy, sessionIdleTimeout: .seconds(sessionMinutes * 60), maxSessions: maxSessions,
            maxConnections: maxConnections)
        configuration.devEvents = events
        configuration.maxSessionsPerAccount = maxSessionsPerAccount
        let web = WebServer(runtime: runtime, configuration: configuration)
        let endpoint = try metricsAddress(runtime).map { address in
            let metrics = HostMetrics()
            metrics.attach(runtime)
            metrics.countLiveSessions { web.liveSessions }
            runtime.observe(metrics)
            return MetricsEndpoint(metrics: metrics, address: address, logger: runtime.logger)
        }
        var traces: TraceExport?
        if let endpoint = try traceEndpoint() {
            do {
                traces = try TraceExport.start(endpoint, runtime: runtime, instance: "\(ProcessInfo.processInfo.hostName)/\(getpid())",
                                               version: VersionText.version, environment: ProcessInfo.processInfo.environment)
            } catch {
                FileHandle.standardError.write(Data("Error: den serve cannot send spans: \(error)\n".utf8))
                throw ExitCode(ExitStatus.usage)
            }
        }
        // The spans still queued go out before den exits (a receiver that went away costs 5 s at most).
        defer { if let traces { try? AsyncBridge.wait { await traces.shutdown() } } }
        if let traces { print("Den sends its spans to \(traces.destination)") }
        let syncing = SyncSlot()
        let watch = events.map {
            WebHotSwap.start(runtime, events: $0, options: watching.watcherOptions) { file, id in
                let version = runtime.registry.plugins.last { $0.file.path == file.path && $0.id == id }?.version
                syncing.sync.withLock { $0 }?.publishLocalChange(file, moduleID: id, version: version)
            }
        }
        defer { watch?.stop() }
        // One swapper for the folder watch, the module sync and the grants alike.
        let swapper = watch?.swapper ?? HotSwapper(runtime: runtime)
        let sync = startModuleSync(runtime, swapper: swapper)
        syncing.sync.withLock { $0 = sync }
        defer { sync?.stop() }
        let grants = Self.followGrants(runtime, swapper: swapper)
        defer { grants?.stop() }
        // `den plugins` elsewhere names the module that takes most of this den's module time.
        let busy = BusyReport(runtime: runtime, watching: watch != nil)
        try? busy.start()
        defer { busy.stop() }
        let listening = ListeningFlag()
        do {
            try AsyncBridge.wait {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await web.run { url in
                            listening.value.store(true, ordering: .sequentiallyConsistent)
                            print("Den is serving on \(url)")
                            fflush(nil) // a script waiting for this line sees it at once
                            whenListening()
                        }
                    }
                    if let endpoint {
                        group.addTask {
                            do {
                                try await endpoint.run { url in
                                    print("Den serves its metrics on \(url)")
                                    fflush(nil)
                                }
                            } catch is CancellationError {
                            } catch {
                                throw MetricsServeFailure(message: "den serve could not serve its metrics on \(endpoint.address): \(error). Is another program using the port? Choose another address with --metrics.")
                            }
                        }
                    }
                    // The pages stopped (SIGTERM, Ctrl-C), or the metrics could not be served:
                    // the other stops too.
                    try await group.next()
                    group.cancelAll()
                }
            }
        } catch let failure as MetricsServeFailure {
            FileHandle.standardError.write(Data("Error: \(failure.message)\n".utf8))
            throw ExitCode(ExitStatus.failure)
        } catch {
            let message = listening.value.load(ordering: .sequentiallyConsistent)
                ? "den serve stopped: \(error)"
                : "den serve could not listen on \(address):\(port): \(error). Is another program using the port? Choose another with --port (0 picks a free one)."
            FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
    }
}

/// Set once the pages listen: an error after that is a stop, not a failure to listen.
final class ListeningFlag: Sendable {
    let value = Atomic<Bool>(false)
}

/// The metrics address could not be served: den serve stops, saying so.
struct MetricsServeFailure: Error {
    var message: String
}

/// The module sync, made after the folder watch that hands it what it swapped in.
final class SyncSlot: Sendable {
    let sync = Mutex<ModuleSync?>(nil)
}

extension ServeOptions {
    /// Follows `den modules grant` and `--revoke` made elsewhere (docs/PERMISSIONS.md): a
    /// revocation is enforced within two seconds, and a module held for permissions that is
    /// now granted is swapped in. nil when its thread cannot start (said on standard error).
    static func followGrants(_ runtime: DenRuntime, swapper: HotSwapper) -> GrantFollower? {
        let follower = GrantFollower(book: runtime.permissions, logger: runtime.logger) { file in
            let report = swapper.swap(file, again: true)
            print("module grant: \(report.description)")
            fflush(nil)
        }
        do { try follower.start() } catch {
            FileHandle.standardError.write(Data("Warning: module grants made elsewhere are not followed: \(error)\n".utf8))
            return nil
        }
        return follower
    }

    /// On PostgreSQL, follows the modules published in the database (docs/DEPLOY.md, "Modules
    /// across hosts"); nil on SQLite, or when this den loads no user modules folder.
    func startModuleSync(_ runtime: DenRuntime, swapper: HotSwapper?) -> ModuleSync? {
        guard let location = try? options.databaseLocation() else { return nil }
        guard let folder = runtime.configuration.userDirectory else {
            print("Note: modules published in the database are not followed: this den loads no user modules folder (--no-default-modules).")
            return nil
        }
        let swapper = swapper ?? HotSwapper(runtime: runtime)
        let sync = ModuleSync(shelf: PostgresModuleShelf(engine: PostgresStorageEngine(location: location)), folder: folder,
                              period: .milliseconds(Int(moduleCheckSeconds * 1000)),
                              swap: { swapper.swap($0) },
                              say: { line in print(line); fflush(nil) })
        sync.start()
        return sync
    }
}

/// Runs async work from a synchronous command and waits for it (den's root command is
/// synchronous; the server's threads are not the one waiting here).
enum AsyncBridge {
    static func wait(_ body: @escaping @Sendable () async throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        Task {
            do { try await body() } catch let error { failure.withLock { $0 = error } }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
