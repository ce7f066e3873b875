import DenHost
import Tracing

/// den's spans, made by an OpenTelemetry tracer (swift-otel's, or any `Tracer`): a request, a
/// module call with the module's id, version, hosting and signer, a service call.
struct OTelCallTracer<Backend: Tracer>: CallTracer {
    let tracer: Backend
    /// Each module's version, hosting and signer, from the registry.
    let modules: ModuleFactsCache

    func beginRequest(_ name: String, parent: SpanParent?, attributes: [(String, SpanValue)]) -> any TraceSpan {
        let span = start(name, kind: .server, parent: parent)
        for (key, value) in attributes { span.set(key, value) }
        return span
    }

    func beginModuleCall(_ call: ModuleCall, parent: SpanParent?) -> any TraceSpan {
        let span = start("\(call.kind.rawValue) \(call.moduleID)", kind: .internal, parent: parent)
        let facts = modules.facts(of: call.moduleID)
        span.set("den.module.id", .string(call.moduleID))
        span.set("den.module.version", .string(facts.version))
        span.set("den.module.hosting", .string(facts.hosting))
        span.set("den.module.signer", .string(facts.signer))
        span.set("den.call.kind", .string(call.kind.rawValue))
        span.set("den.call.pattern", .string(call.pattern))
        return span
    }

    func beginServiceCall(_ service: TracedService, parent: SpanParent?) -> any TraceSpan {
        // http.get leaves den for another server: a client span, as OpenTelemetry has it.
        let span = start(service.operation, kind: service.operation.hasPrefix("http.") ? .client : .internal, parent: parent)
        span.set("den.module.id", .string(service.moduleID))
        span.set("den.service.operation", .string(service.operation))
        return span
    }

    private func start(_ name: String, kind: SpanKind, parent: SpanParent?) -> OTelTraceSpan {
        let context = self.context(of: parent)
        let span = tracer.startSpan(name, context: context, ofKind: kind)
        return OTelTraceSpan(span, traceparent: { [tracer] context in
            var carrier: [String: String] = [:]
            tracer.inject(context, into: &carrier, using: HeaderInjector())
            return carrier["traceparent"] ?? ""
        })
    }

    /// The parent's context: a span of ours, or a `traceparent` from outside read by the tracer's
    /// propagator (an invalid one is ignored, and the span starts a new trace).
    private func context(of parent: SpanParent?) -> ServiceContext {
        switch parent {
        case .none: return .topLevel
        case .span(let span): return (span as? OTelTraceSpan)?.span.context ?? .topLevel
        case .traceparent(let header):
            guard TraceParentHeader.isWellFormed(header) else { return .topLevel }
            var context = ServiceContext.topLevel
            tracer.extract(["traceparent": header], into: &context, using: HeaderExtractor())
            return context
        }
    }
}

/// A started span, ended once by whoever began it.
final class OTelTraceSpan: TraceSpan {
    let span: any Span
    private let format: @Sendable (ServiceContext) -> String

    init(_ span: any Span, traceparent: @escaping @Sendable (ServiceContext) -> String) {
        self.span = span
        format = traceparent
    }

    var traceparent: String { format(span.context) }

    func set(_ key: String, _ value: SpanValue) {
        switch value {
        case .string(let text): span.attributes[key] = text
        case .int(let number): span.attributes[key] = Int64(number)
        }
    }

    func end(error: String?) {
        if let error { span.setStatus(SpanStatus(code: .error, message: error)) }
        span.end()
    }
}

struct HeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key] = value
    }
}

struct HeaderExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? {
        carrier[key]
    }
}
