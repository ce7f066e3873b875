import CDenABI
@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Logging
import Synchronization
import Testing

/// What den's spans hang under, read from a tracer that records them (DenTracing sends the same
/// spans to an OTLP receiver; Tests/EndToEndTests/TracingEndToEndTests checks that side).
@Suite("Tracing: a module call's span hangs under its request, and its service calls under it")
struct CallTracingSpec {
    final class RecordedSpan: TraceSpan, @unchecked Sendable {
        let name: String
        let parent: String?
        let id: String
        private let lock = NSLock()
        private var _attributes: [String: SpanValue] = [:]
        private var _ends: [String?] = []

        init(name: String, parent: SpanParent?, id: String) {
            self.name = name
            self.id = id
            switch parent {
            case .none: self.parent = nil
            case .span(let span): self.parent = (span as? RecordedSpan)?.id
            case .traceparent(let header): self.parent = "header:" + header
            }
        }

        var traceparent: String { "00-0af7651916cd43dd8448eb211c80319c-\(id)-01" }
        var attributes: [String: SpanValue] { lock.withLock { _attributes } }
        /// Each `end`'s error: a span ends exactly once.
        var ends: [String?] { lock.withLock { _ends } }
        func set(_ key: String, _ value: SpanValue) { lock.withLock { _attributes[key] = value } }
        func end(error: String?) { lock.withLock { _ends.append(error) } }
    }

    final class RecordingTracer: CallTracer, @unchecked Sendable {
        private let spans = Mutex<[RecordedSpan]>([])

        private func record(_ name: String, _ parent: SpanParent?) -> RecordedSpan {
            spans.withLock { spans in
                let span = RecordedSpan(name: name, parent: parent, id: String(format: "%016x", spans.count + 1))
                spans.append(span)
                return span
            }
        }

        var all: [RecordedSpan] { spans.withLock { $0 } }
        func named(_ name: String) -> [RecordedSpan] { all.filter { $0.name == name } }

        func beginRequest(_ name: String, parent: SpanParent?, attributes: [(String, SpanValue)]) -> any TraceSpan {
            record(name, parent)
        }
        func beginModuleCall(_ call: ModuleCall, parent: SpanParent?) -> any TraceSpan {
            record("\(call.kind.rawValue) \(call.moduleID)", parent)
        }
        func beginServiceCall(_ service: TracedService, parent: SpanParent?) -> any TraceSpan {
            record(service.operation, parent)
        }
    }

    /// A runner and a hub that share one tracer slot, as a runtime's do.
    struct Traced {
        let slot = TracerSlot()
        let tracer = RecordingTracer()
        let hub: ServiceHub

        init(tracing: Bool = true) {
            hub = ServiceHub()
            hub.register(LogService(logger: Logger(label: "den.test")))
            if tracing { hub.tracing.set(tracer) }
        }

        func runner(timeout: Duration = .seconds(30)) -> ModuleCallRunner {
            let observer = RuntimeCallObserver(slowCalls: SlowCallWarning(threshold: .seconds(60), logger: Logger(label: "den.test")),
                                               timeShare: ModuleTimeShare(), added: ObserverList(), tracing: hub.tracing)
            return ModuleCallRunner(policy: ModuleCallPolicy(timeout: timeout), observer: observer)
        }

        func log(_ text: String) -> den_status {
            hub.call("log", request: Data(#"{"level":"info","message":"\#(text)"}"#.utf8), caller: ServiceCaller(moduleID: "jogs")).status
        }
    }

    @Test("request → module call → service call: each span under the one bound on the thread, each ended once")
    func nesting() throws {
        let traced = Traced()
        let request = traced.tracer.beginRequest("GET jogs/<int:id>", parent: .traceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"), attributes: [])
        let call = ModuleCall(moduleID: "jogs", what: "handle(appear)", kind: .handle, pattern: "jogs/<int:id>")
        let result = CallTrace.$span.withValue(request) {
            traced.runner().run(call, status: { $0 }) { () -> Int32 in
                #expect(traced.log("listing") == DEN_OK)
                return Int32(DEN_ERR_NOT_FOUND.rawValue)
            }
        }
        #expect(try result.get() == Int32(DEN_ERR_NOT_FOUND.rawValue))
        request.end(error: nil)
        let handle = try #require(traced.tracer.named("handle jogs").first)
        let log = try #require(traced.tracer.named("log").first)
        let requestSpan = try #require(traced.tracer.named("GET jogs/<int:id>").first)
        #expect(requestSpan.parent == "header:00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "nginx's traceparent is continued")
        #expect(handle.parent == requestSpan.id)
        #expect(log.parent == handle.id)
        #expect(handle.ends == ["not_found"], "the module's status marks its span failed")
        #expect(log.ends == [nil])
        #expect(log.attributes["den.request.bytes"] != nil)
        #expect(CallTrace.span == nil, "nothing stays bound after the call")
    }

    @Test("a call the watchdog gives up ends its span as given up, once, though the module returns later")
    func givenUp() throws {
        let traced = Traced()
        let call = ModuleCall(moduleID: "slow", what: "handle(action 'wait')", kind: .handle, pattern: "slow")
        let result = traced.runner(timeout: .milliseconds(100)).run(call) { Thread.sleep(forTimeInterval: 0.5) }
        #expect(throws: ModuleCallRunner.GiveUp.self) { try result.get() }
        let span = try #require(traced.tracer.named("handle slow").first)
        #expect(span.ends == ["gave_up"])
    }

    @Test("with tracing off, calls make no spans and bind none")
    func off() throws {
        let traced = Traced(tracing: false)
        let call = ModuleCall(moduleID: "jogs", what: "handle(appear)", kind: .handle, pattern: "jogs")
        let result = traced.runner().run(call) { () -> Bool in
            _ = traced.log("untraced")
            return CallTrace.span == nil
        }
        #expect(try result.get())
        #expect(traced.tracer.all.isEmpty)
    }

    @Test("http.get carries the call's traceparent to the server it fetches from, unless the module sent its own")
    func httpPassesTheTraceOn() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let span = RecordedSpan(name: "http.get", parent: nil, id: "00f067aa0ba902b7")
        func headers(_ request: HTTPGetRequest) throws -> [String: String] {
            let response = try CallTrace.$span.withValue(span) { try HTTPService().get(request) }
            return try JSONDecoder().decode([String: String].self, from: Data(response.body))
        }
        #expect(try headers(HTTPGetRequest(url: server.url("/headers")))["traceparent"] == span.traceparent)
        let own = "00-11111111111111111111111111111111-2222222222222222-01"
        #expect(try headers(HTTPGetRequest(url: server.url("/headers"), headers: ["TraceParent": own]))["traceparent"] == own)
        #expect(span.attributes["http.response.status_code"] == .int(200))
        _ = try headers(HTTPGetRequest(url: server.url("/headers").replacingOccurrences(of: "http://", with: "http://user:secret@") + "?api_key=k#f"))
        #expect(span.attributes["url.full"] == .string(server.url("/headers")), "no user, password, query or fragment in a span")
        let untraced = try HTTPService().get(HTTPGetRequest(url: server.url("/headers")))
        #expect(try JSONDecoder().decode([String: String].self, from: Data(untraced.body))["traceparent"] == nil)
    }
}
