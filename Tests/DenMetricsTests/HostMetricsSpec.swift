import CDenABI
import DenHost
import DenMetrics
import Testing

@Suite("HostMetrics: every call and event counted, labelled by route pattern, in Prometheus text")
struct HostMetricsSpec {
    func samples(_ metrics: HostMetrics) -> [MetricSample] { MetricsText.parse(metrics.exposition()) }

    func value(_ samples: [MetricSample], _ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { sample in sample.name == name && labels.allSatisfy { key, value in sample.labels[key] == value } }?.value
    }

    @Test("calls of one route pattern share a series whatever their path; errors are counted by their kind")
    func moduleCalls() {
        let metrics = HostMetrics()
        let build = ModuleCall(moduleID: "jogs", what: "the builder of route 'jogs/41'", kind: .build, pattern: "jogs/<int:id>")
        metrics.moduleCallEnded(build, took: .milliseconds(2), result: .returned(status: Int32(DEN_OK.rawValue)))
        metrics.moduleCallEnded(build, took: .milliseconds(3), result: .returned(status: Int32(DEN_ERR_NOT_FOUND.rawValue)))
        metrics.moduleCallEnded(build, took: .seconds(30), result: .gaveUp)
        let samples = samples(metrics)
        let labels = ["module": "jogs", "kind": "build", "route": "jogs/<int:id>"]
        #expect(value(samples, "den_module_calls_total", labels) == 3)
        #expect(samples.filter { $0.name == "den_module_calls_total" }.count == 1)
        #expect(value(samples, "den_module_call_errors_total", labels.merging(["error": "not_found"]) { $1 }) == 1)
        #expect(value(samples, "den_module_call_errors_total", labels.merging(["error": "gave_up"]) { $1 }) == 1)
        #expect(value(samples, "den_module_call_duration_seconds_count", labels) == 3)
        #expect(value(samples, "den_module_call_duration_seconds_bucket", labels.merging(["le": "0.0025"]) { $1 }) == 1)
        #expect(value(samples, "den_module_call_duration_seconds_bucket", labels.merging(["le": "0.005"]) { $1 }) == 2)
        #expect(value(samples, "den_module_call_duration_seconds_bucket", labels.merging(["le": "+Inf"]) { $1 }) == 3)
        #expect(!metrics.exposition().contains("jogs/41"))
    }

    @Test("service calls are counted by operation and outcome; storage calls count their bytes each way")
    func serviceCalls() {
        let metrics = HostMetrics()
        metrics.serviceCalled("storage.get", moduleID: "jogs", status: DEN_OK, requestBytes: 20, replyBytes: 300)
        metrics.serviceCalled("storage.get", moduleID: "jogs", status: DEN_OK, requestBytes: 22, replyBytes: 100)
        metrics.serviceCalled("http.get", moduleID: "main", status: DEN_ERR_PERMISSION, requestBytes: 50, replyBytes: 80)
        let samples = samples(metrics)
        #expect(value(samples, "den_module_service_calls_total", ["module": "jogs", "operation": "storage.get", "outcome": "ok"]) == 2)
        #expect(value(samples, "den_module_service_calls_total", ["module": "main", "operation": "http.get", "outcome": "permission"]) == 1)
        #expect(value(samples, "den_module_storage_bytes_total", ["module": "jogs", "direction": "out"]) == 42)
        #expect(value(samples, "den_module_storage_bytes_total", ["module": "jogs", "direction": "in"]) == 400)
        #expect(value(samples, "den_module_storage_bytes_total", ["module": "main"]) == nil, "http is not storage")
    }

    @Test("host events: requests by status, refusals, session saves, audit lines by event; live sessions read when scraped")
    func hostEvents() {
        let metrics = HostMetrics()
        for status in [200, 200, 303, 429] { metrics.hostEvent(.answered(status: status)) }
        metrics.hostEvent(.connectionRefused)
        metrics.hostEvent(.sessionSaved)
        metrics.hostEvent(.audit("login.throttled"))
        metrics.hostEvent(.audit("login.throttled"))
        let live = LiveCount()
        metrics.countLiveSessions { live.value }
        live.value = 7
        let samples = samples(metrics)
        #expect(value(samples, "den_requests_total", ["status": "200"]) == 2)
        #expect(value(samples, "den_requests_total", ["status": "429"]) == 1)
        #expect(value(samples, "den_connections_refused_total") == 1)
        #expect(value(samples, "den_session_saves_total") == 1)
        #expect(value(samples, "den_audit_events_total", ["event": "login.throttled"]) == 2)
        #expect(value(samples, "den_live_sessions") == 7)
        #expect((value(samples, "den_resident_memory_bytes") ?? 0) > 0)
    }

    @Test("every metric den exports has its HELP and TYPE lines, and its name is in MetricNames.all")
    func namesAreDeclared() {
        let metrics = HostMetrics()
        metrics.moduleCallEnded(ModuleCall(moduleID: "a", what: "x", kind: .handle, pattern: "a"), took: .zero, result: .returned(status: 7))
        metrics.serviceCalled("storage.put", moduleID: "a", status: DEN_OK, requestBytes: 1, replyBytes: 1)
        metrics.hostEvent(.audit("login.ok"))
        metrics.hostEvent(.answered(status: 200))
        let text = metrics.exposition()
        for sample in MetricsText.parse(text) {
            let base = ["_bucket", "_sum", "_count"].reduce(sample.name) { name, suffix in
                name.hasSuffix(suffix) && name.hasPrefix("den_module_call_duration") ? String(name.dropLast(suffix.count)) : name
            }
            #expect(MetricNames.all.contains(base), "\(sample.name) is not declared")
            #expect(text.contains("# TYPE \(base) "), "\(base) has no TYPE line")
            #expect(text.contains("# HELP \(base) "), "\(base) has no HELP line")
        }
    }
}

/// A count a test changes after handing its reader over.
final class LiveCount: @unchecked Sendable {
    var value = 0
}
