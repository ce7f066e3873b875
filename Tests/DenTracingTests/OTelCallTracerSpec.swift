import DenHost
@testable import DenTracing
import InMemoryTracing
import Testing
import Tracing

/// The spans DenTracing makes of den's calls, read from swift-distributed-tracing's in-memory
/// tracer (the OTLP side: Tests/EndToEndTests/TracingEndToEndTests).
@Suite("OTelCallTracer: den's spans with their names, kinds, attributes and parents")
struct OTelCallTracerSpec {
    let backend = InMemoryTracer()
    var tracer: OTelCallTracer<InMemoryTracer> { OTelCallTracer(tracer: backend, modules: ModuleFactsCache()) }

    func finished(_ name: String) throws -> FinishedInMemorySpan {
        try #require(backend.finishedSpans.first { $0.operationName == name })
    }

    @Test("a request is a server span; its module call and that call's http.get hang under it, with the module's facts")
    func tree() throws {
        let tracer = tracer
        let request = tracer.beginRequest("GET jogs/<int:id>", parent: nil, attributes: [("http.request.method", .string("GET"))])
        let call = tracer.beginModuleCall(ModuleCall(moduleID: "jogs", what: "handle(appear)", kind: .handle, pattern: "jogs/<int:id>"),
                                          parent: .span(request))
        let http = tracer.beginServiceCall(TracedService(operation: "http.get", moduleID: "jogs"), parent: .span(call))
        http.set("http.response.status_code", .int(200))
        http.end(error: nil)
        call.end(error: "not_found")
        request.end(error: nil)

        let requestSpan = try finished("GET jogs/<int:id>")
        let callSpan = try finished("handle jogs")
        let httpSpan = try finished("http.get")
        #expect(requestSpan.kind == .server)
        #expect(callSpan.kind == .internal)
        #expect(httpSpan.kind == .client, "http.get leaves den: a client span")
        #expect(callSpan.spanContext.parentSpanID == requestSpan.spanContext.spanID)
        #expect(httpSpan.spanContext.parentSpanID == callSpan.spanContext.spanID)
        #expect(Set([requestSpan.traceID, callSpan.traceID, httpSpan.traceID]).count == 1)
        #expect(callSpan.attributes["den.module.id"]?.toSpanAttribute() == .string("jogs"))
        #expect(callSpan.attributes["den.call.pattern"]?.toSpanAttribute() == .string("jogs/<int:id>"))
        #expect(callSpan.attributes["den.call.kind"]?.toSpanAttribute() == .string("handle"))
        #expect(callSpan.status?.code == .error)
        #expect(callSpan.status?.message == "not_found")
        #expect(httpSpan.status == nil)
        #expect(httpSpan.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
    }

    @Test("a span outside any other starts a trace of its own")
    func root() throws {
        let span = tracer.beginModuleCall(ModuleCall(moduleID: "main", what: "convert", kind: .export, pattern: "main.convert"), parent: nil)
        span.end(error: nil)
        #expect(try finished("export main").spanContext.parentSpanID == nil)
    }
}
