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
    public static func start(_ endpoint: OTLPEndpoint, runtime: DenRuntime, instance: String, version: String) throws -> TraceExport {
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
        let (tracer, service) = try OTel.makeTracingBackend(configuration: configuration)
        let modules = ModuleFactsCache()
        modules.attach(runtime.registry.factsSource)
        runtime.trace(with: OTelCallTracer(tracer: tracer, modules: modules))
        let group = ServiceGroup(configuration: .init(services: [service], logger: runtime.logger))
        let running = Task {
            do { try await group.run() } catch { runtime.logger.warning("den stopped exporting spans to \(endpoint): \(error)") }
        }
        return TraceExport(endpoint: endpoint, group: group, running: running)
    }

    private init(endpoint: OTLPEndpoint, group: ServiceGroup, running: Task<Void, Never>) {
        self.endpoint = endpoint
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
