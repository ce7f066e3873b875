import DenHost
import Logging
import OTel
import ServiceLifecycle
import Synchronization
import Tracing

/// den's spans on their way to an OTLP/HTTP receiver (swift-otel's batch exporter): started by
/// `den serve --otlp-endpoint`, shut down when it stops, which sends the spans still queued.
public final class TraceExport: Sendable {
    public let endpoint: OTLPEndpoint
    private let group: ServiceGroup
    private let running: Task<Void, Never>

    /// Starts exporting and makes `runtime` trace every request, module call and service call.
    ///
    /// OpenTelemetry's environment variables still apply on top (`OTEL_SERVICE_NAME`,
    /// `OTEL_TRACES_SAMPLER`, `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_EXPORTER_OTLP_HEADERS`, …;
    /// docs/OBSERVABILITY.md).
    /// - Throws: `Problem` when OpenTelemetry's environment variables ask for what den's exporter
    ///   cannot do, or swift-otel refuses its configuration.
    public static func start(_ endpoint: OTLPEndpoint, runtime: DenRuntime, instance: String, version: String,
                             environment: [String: String]) throws(Problem) -> TraceExport {
        let problems = OTelEnvironment.problems(environment)
        guard problems.isEmpty else { throw Problem(problems.joined(separator: "; ")) }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "den"
        // Three hosts behind nginx export to one collector: each span says which host made it.
        configuration.resourceAttributes = ["service.instance.id": instance, "service.version": version]
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = true
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.endpoint = endpoint.url
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        configuration.diagnosticLogger = .custom(runtime.logger)
        configuration.diagnosticLogLevel = .warning
        do {
            let (tracer, service) = try OTel.makeTracingBackend(configuration: configuration)
            return begin(tracer: tracer, service: service, endpoint: endpoint, runtime: runtime, environment: environment)
        } catch {
            throw Problem("OpenTelemetry refused den's settings with the environment's OTEL_* variables on top: \(error)")
        }
    }

    private static func begin(tracer: some Tracer, service: some Service, endpoint: OTLPEndpoint, runtime: DenRuntime,
                              environment: [String: String]) -> TraceExport {
        let modules = ModuleFactsCache()
        modules.attach(runtime.registry.factsSource)
        runtime.trace(with: OTelCallTracer(tracer: tracer, modules: modules))
        let group = ServiceGroup(configuration: .init(services: [service], logger: runtime.logger))
        let running = Task {
            do { try await group.run() } catch { runtime.logger.warning("den stopped exporting spans to \(endpoint): \(error)") }
        }
        return TraceExport(endpoint: endpoint, group: group, running: running, environment: environment)
    }

    /// Why tracing could not start.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String

        init(_ description: String) {
            self.description = description
        }
    }

    /// Where the spans go in fact: OpenTelemetry's endpoint variables win over `--otlp-endpoint`.
    public var destination: String {
        if let traces = environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"], !traces.isEmpty {
            return "\(traces) (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)"
        }
        if let any = environment["OTEL_EXPORTER_OTLP_ENDPOINT"], !any.isEmpty {
            return "\(any.hasSuffix("/") ? String(any.dropLast()) : any)/v1/traces (OTEL_EXPORTER_OTLP_ENDPOINT)"
        }
        return endpoint.url
    }

    private let environment: [String: String]

    private init(endpoint: OTLPEndpoint, group: ServiceGroup, running: Task<Void, Never>, environment: [String: String]) {
        self.endpoint = endpoint
        self.environment = environment
        self.group = group
        self.running = running
    }

    /// Sends the spans still queued and stops; gives up after `limit` (a receiver that went away
    /// must not hold den's exit).
    public func shutdown(within limit: Duration = .seconds(5)) async {
        await group.triggerGracefulShutdown()
        // Whichever comes first: the export's end, or the limit. (A task group would wait for
        // both, since waiting for a task's value ignores cancellation.)
        let running = running
        let once = Mutex(false)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let finish: @Sendable () -> Void = {
                if once.withLock({ finished in defer { finished = true }; return !finished }) { done.resume() }
            }
            Task { await running.value; finish() }
            Task { try? await Task.sleep(for: limit); finish() }
        }
    }
}
