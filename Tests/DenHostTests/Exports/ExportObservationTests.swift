import CDenABI
@testable import DenHost
import DenTestSupport
import Foundation
import Synchronization
import Testing

/// Metrics and the time share hear of exports however they are called: by `den call` and by
/// another module through `exports.call` (docs/OBSERVABILITY.md).
@Suite("Export calls reach the observers, named by the export")
struct ExportObservationTests {
    final class Heard: ModuleCallObserver, ServiceCallObserver, HostEventObserver, @unchecked Sendable {
        let calls = Mutex<[(ModuleCall, ModuleCallResult)]>([])
        func moduleCallEnded(_ call: ModuleCall, took: Duration, result: ModuleCallResult) {
            calls.withLock { $0.append((call, result)) }
        }
        func serviceCalled(_ operation: String, moduleID: String, status: den_status, requestBytes: Int, replyBytes: Int) {}
        func hostEvent(_ event: HostEvent) {}
    }

    @Test("an export called by another module is a span of the exporter's, under the caller's exports.call span")
    func traced() throws {
        let fixture = try ExportFixture()
        let tracer = CallTracingSpec.RecordingTracer()
        fixture.runtime.trace(with: tracer)
        let caller = tracer.beginModuleCall(ModuleCall(moduleID: "other", what: "handle(appear)", kind: .handle, pattern: "other"), parent: nil)
        let answer = CallTrace.$span.withValue(caller) { fixture.service(#"{"name":"exporter.add","arguments":[40,2]}"#, caller: "other") }
        #expect(answer.body == #"{"result":42,"type":"i64"}"#)
        let service = try #require(tracer.named("exports.call").first)
        let export = try #require(tracer.named("export exporter").first)
        #expect(service.parent == (caller as? CallTracingSpec.RecordedSpan)?.id)
        #expect(export.parent == service.id)
        #expect(export.ends == [nil])
        #expect(service.ends == [nil])
    }

    @Test("exports.call from another module and den call are each one export call of the exporter, with its status")
    func observed() throws {
        let fixture = try ExportFixture()
        let heard = Heard()
        fixture.runtime.observe(heard)
        #expect(fixture.service(#"{"name":"exporter.add","arguments":[40,2]}"#, caller: "other").body == #"{"result":42,"type":"i64"}"#)
        #expect(fixture.call("exporter.add", "1", "2").value == .i64(3))
        let calls = heard.calls.withLock { $0 }
        #expect(calls.count == 2)
        for (call, result) in calls {
            #expect(call.moduleID == "exporter")
            #expect(call.kind == .export)
            #expect(call.pattern == "exporter.add")
            #expect(result == .returned(status: Int32(DEN_OK.rawValue)))
        }
    }
}
