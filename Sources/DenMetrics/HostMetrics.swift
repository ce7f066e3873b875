import CDenABI
import DenHost
import DenSupport
import FoundationEssentials
import Prometheus
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Den's figures in Prometheus form: every module call, service call and host event is counted
/// as it happens (one dictionary lookup and a few atomic adds); what is a state rather than an
/// event (restarts, quarantines, workers' memory, live sessions) is read when scraped.
///
/// Labels name a module by id, version and hosting, and a call by kind and **route pattern**
/// (`jogs/:id`), never the raw path: one series per route, not one per jog.
public final class HostMetrics: ModuleCallObserver, ServiceCallObserver, HostEventObserver, Sendable {
    public let registry = PrometheusCollectorRegistry()
    /// The runtime whose modules are labelled and scraped; set once it exists.
    private let runtimeBox = Mutex<DenRuntime?>(nil)
    private let labels = ModuleFactsCache()
    private let callMeters = Mutex<[CallKey: CallMeter]>([:])
    private let serviceMeters = Mutex<[ServiceKey: ServiceMeter]>([:])
    private let requestCounters = Mutex<[Int: Counter]>([:])
    private let auditCounters = Mutex<[String: Counter]>([:])
    private let sessionSaves: Counter
    private let refused: Counter
    /// What a scrape reads besides the registry: live sessions (the front-end's count).
    private let liveSessionCount = Mutex<(@Sendable () -> Int)?>(nil)
    /// Restarts already counted, per isolated module object (its count only grows; a swap to
    /// the same version is a new object whose count starts again at 0).
    private let countedRestarts = Mutex<[ObjectIdentifier: Int]>([:])
    /// The labels of the time-share gauge set last: set to 0 when the blame moves or ends.
    private let blamed = Mutex<[(String, String)]?>(nil)

    /// Module call durations: 100 µs to 30 s, the call limit's default.
    static let buckets: [Duration] = [.microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
                                      .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                                      .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                                      .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30)]

    public init() {
        sessionSaves = registry.makeCounter(descriptor: MetricNames.sessionSaves)
        refused = registry.makeCounter(descriptor: MetricNames.refused)
        // Present from the first scrape, so a dashboard shows 0 rather than nothing.
        _ = registry.makeGauge(descriptor: MetricNames.liveSessions)
        _ = registry.makeGauge(descriptor: MetricNames.memory)
    }

    /// Labels modules from this runtime's registry and reads its isolated workers when scraped.
    public func attach(_ runtime: DenRuntime) {
        runtimeBox.withLock { $0 = runtime }
        labels.attach(runtime.registry.factsSource)
    }

    /// How many browser sessions the front-end holds, read at each scrape.
    public func countLiveSessions(_ count: @escaping @Sendable () -> Int) {
        liveSessionCount.withLock { $0 = count }
    }

    // MARK: Module calls

    struct CallKey: Hashable {
        var moduleID: String
        var kind: ModuleCall.Kind
        var pattern: String
        var revision: Int
    }

    final class CallMeter: Sendable {
        let calls: Counter
        let duration: DurationHistogram
        let labels: [(String, String)]
        let errors = Mutex<[String: Counter]>([:])

        init(registry: PrometheusCollectorRegistry, labels: [(String, String)]) {
            self.labels = labels
            calls = registry.makeCounter(descriptor: MetricNames.calls, labels: labels)
            duration = registry.makeDurationHistogram(descriptor: MetricNames.callDuration, labels: labels, buckets: HostMetrics.buckets)
        }
    }

    public func moduleCallEnded(_ call: ModuleCall, took: Duration, result: ModuleCallResult) {
        let module = labels.facts(of: call.moduleID)
        let key = CallKey(moduleID: call.moduleID, kind: call.kind, pattern: call.pattern, revision: module.revision)
        let meter = callMeters.withLock { meters in
            if let meter = meters[key] { return meter }
            let meter = CallMeter(registry: registry, labels: [("module", call.moduleID), ("version", module.version),
                                                               ("hosting", module.hosting), ("kind", call.kind.rawValue),
                                                               ("route", call.pattern)])
            meters[key] = meter
            return meter
        }
        meter.calls.increment()
        meter.duration.record(took)
        let error: String? = switch result {
        case .gaveUp: "gave_up"
        case .returned(let status): status == DEN_OK.rawValue ? nil : DenStatusName.of(status)
        }
        guard let error else { return }
        let counter = meter.errors.withLock { errors in
            if let counter = errors[error] { return counter }
            let counter = registry.makeCounter(descriptor: MetricNames.callErrors, labels: meter.labels + [("error", error)])
            errors[error] = counter
            return counter
        }
        counter.increment()
    }

    // MARK: Service calls

    struct ServiceKey: Hashable {
        var moduleID: String
        var operation: String
        var failed: Int32
        var revision: Int
    }

    final class ServiceMeter: Sendable {
        let calls: Counter
        let bytesOut: Counter?
        let bytesIn: Counter?

        init(calls: Counter, bytesOut: Counter?, bytesIn: Counter?) {
            self.calls = calls
            self.bytesOut = bytesOut
            self.bytesIn = bytesIn
        }
    }

    public func serviceCalled(_ operation: String, moduleID: String, status: den_status, requestBytes: Int, replyBytes: Int) {
        let module = labels.facts(of: moduleID)
        let key = ServiceKey(moduleID: moduleID, operation: operation, failed: Int32(status.rawValue), revision: module.revision)
        let meter = serviceMeters.withLock { meters in
            if let meter = meters[key] { return meter }
            let base = [("module", moduleID), ("version", module.version), ("hosting", module.hosting)]
            // Operation names are the host's own (an unknown one is refused before it is counted).
            let outcome = status == DEN_OK ? "ok" : DenStatusName.of(Int32(status.rawValue))
            let calls = registry.makeCounter(descriptor: MetricNames.serviceCalls, labels: base + [("operation", operation), ("outcome", outcome)])
            let storage = operation.hasPrefix("storage.")
            let meter = ServiceMeter(calls: calls,
                                     bytesOut: storage ? registry.makeCounter(descriptor: MetricNames.storageBytes, labels: base + [("direction", "out")]) : nil,
                                     bytesIn: storage ? registry.makeCounter(descriptor: MetricNames.storageBytes, labels: base + [("direction", "in")]) : nil)
            meters[key] = meter
            return meter
        }
        meter.calls.increment()
        meter.bytesOut?.increment(by: Int64(requestBytes))
        meter.bytesIn?.increment(by: Int64(replyBytes))
    }

    // MARK: Host events

    public func hostEvent(_ event: HostEvent) {
        switch event {
        case .answered(let status):
            let counter = requestCounters.withLock { counters in
                if let counter = counters[status] { return counter }
                let counter = registry.makeCounter(descriptor: MetricNames.requests, labels: [("status", String(status))])
                counters[status] = counter
                return counter
            }
            counter.increment()
        case .connectionRefused:
            refused.increment()
        case .sessionSaved:
            sessionSaves.increment()
        case .audit(let name):
            let counter = auditCounters.withLock { counters in
                if let counter = counters[name] { return counter }
                let counter = registry.makeCounter(descriptor: MetricNames.audit, labels: [("event", name)])
                counters[name] = counter
                return counter
            }
            counter.increment()
        }
    }

    // MARK: Scrape

    /// The Prometheus text of every figure, states read now.
    public func exposition() -> String {
        refreshStates()
        return registry.emitToString()
    }

    /// Reads what is a state rather than an event: each isolated module's restarts, quarantine
    /// and worker memory; the time share; live sessions; den's own memory.
    private func refreshStates() {
        registry.makeGauge(descriptor: MetricNames.memory).set(ResidentMemory.bytes())
        if let count = liveSessionCount.withLock({ $0 }) {
            registry.makeGauge(descriptor: MetricNames.liveSessions).set(Int64(count()))
        }
        guard let runtime = runtimeBox.withLock({ $0 }) else { return }
        let blame = runtime.timeShare.blame()
        let now = blame.map { [("module", $0.moduleID), ("version", labels.facts(of: $0.moduleID).version)] }
        if let previous = blamed.withLock({ $0 }), previous.map(\.1) != now?.map(\.1) {
            registry.makeGauge(descriptor: MetricNames.timeShare, labels: previous).set(0.0)
        }
        if let blame, let now { registry.makeGauge(descriptor: MetricNames.timeShare, labels: now).set(blame.share) }
        blamed.withLock { $0 = now ?? $0 }
        for record in runtime.registry.plugins where record.isActive {
            guard let id = record.id, let isolated = record.isolated else { continue }
            let moduleLabels = [("module", id), ("version", record.version ?? "")]
            let worker = isolated.worker
            let key = ObjectIdentifier(isolated)
            let new = countedRestarts.withLock { counted in
                defer { counted[key] = max(counted[key] ?? 0, worker.restarts) }
                return worker.restarts - (counted[key] ?? 0)
            }
            let restarts = registry.makeCounter(descriptor: MetricNames.restarts, labels: moduleLabels)
            if new > 0 { restarts.increment(by: Int64(new)) }
            registry.makeGauge(descriptor: MetricNames.quarantined, labels: moduleLabels).set(Int64(isolated.isQuarantined ? 1 : 0))
            registry.makeGauge(descriptor: MetricNames.workerMemory, labels: moduleLabels).set(worker.pid.map { ResidentMemory.bytes(of: $0) } ?? 0)
        }
    }
}
