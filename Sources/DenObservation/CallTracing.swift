import CDenABI
import Synchronization

/// A span den opened: a request, a module call, a service call. Ended once, by whoever opened it.
public protocol TraceSpan: AnyObject, Sendable {
    /// Its W3C `traceparent` (`00-<trace id>-<span id>-<flags>`): what den carries into an
    /// isolated worker's frames and into the http service's outgoing requests.
    var traceparent: String { get }
    /// Sets one attribute (OpenTelemetry's semantic conventions where one fits).
    func set(_ key: String, _ value: SpanValue)
    /// Ends the span now; `error`, when given, marks it failed with that description.
    func end(error: String?)
}

/// An attribute's value.
public enum SpanValue: Sendable, Equatable {
    case string(String)
    case int(Int)
}

/// Where a new span hangs: under a span of this process, or under a `traceparent` from outside
/// (a proxy's request header).
public enum SpanParent: Sendable {
    case span(any TraceSpan)
    case traceparent(String)
}

/// Who a module call or service call belongs to, as its span names it (the module's version and
/// signer come from the registry; DenTracing looks them up).
public struct TracedService: Sendable, Equatable {
    public var operation: String
    public var moduleID: String

    public init(operation: String, moduleID: String) {
        self.operation = operation
        self.moduleID = moduleID
    }
}

/// Opens den's spans (DenTracing implements it with swift-otel). Each call returns a span
/// already started; the caller ends it.
public protocol CallTracer: Sendable {
    /// A front-end request's span (`GET jogs`), under the `traceparent` a proxy sent, if any.
    func beginRequest(_ name: String, parent: SpanParent?, attributes: [(String, SpanValue)]) -> any TraceSpan
    /// A module call's span, under the request (or the call) that made it.
    func beginModuleCall(_ call: ModuleCall, parent: SpanParent?) -> any TraceSpan
    /// A host service call's span (`storage.get`), under the module call that made it.
    func beginServiceCall(_ service: TracedService, parent: SpanParent?) -> any TraceSpan
}

/// The span the code on this thread works for. Bound (like `CallContext.session`) for the
/// length of a request's step, a module call, a service call: a plugin calling back into the
/// host runs on the same thread, so its service calls find their module call here without any
/// change to the C ABI.
public enum CallTrace {
    @TaskLocal public static var span: (any TraceSpan)?

    /// `span`, as a new span's parent.
    public static var parent: SpanParent? {
        span.map { .span($0) }
    }

    /// Runs `body` with `span` bound, or just runs it when there is none (tracing off).
    public static func with<T>(_ span: (any TraceSpan)?, _ body: () throws -> T) rethrows -> T {
        guard let span else { return try body() }
        return try $span.withValue(span, operation: body)
    }
}

/// The runtime's tracer, set while den runs (`den serve --otlp-endpoint`). Reading it costs an
/// atomic load while tracing is off.
public final class TracerSlot: Sendable {
    private let present = Atomic<Bool>(false)
    private let slot = Mutex<(any CallTracer)?>(nil)

    public init() {}

    package func set(_ tracer: any CallTracer) {
        slot.withLock { $0 = tracer }
        present.store(true, ordering: .releasing)
    }

    public var tracer: (any CallTracer)? {
        guard present.load(ordering: .acquiring) else { return nil }
        return slot.withLock { $0 }
    }
}

extension ModuleCallResult {
    /// The error a span records for this result, nil for `DEN_OK`.
    public var spanError: String? {
        switch self {
        case .returned(let status) where status == Int32(DEN_OK.rawValue): nil
        case .returned(let status): DenStatusName.of(status)
        case .gaveUp: "gave_up"
        }
    }
}

/// W3C Trace Context's `traceparent` (https://www.w3.org/TR/trace-context/#traceparent-header):
/// checked before a tracer reads it, so that a malformed header from any client is ignored quietly
/// rather than parsed, or logged, on every request.
public enum TraceParentHeader {
    /// `00-<32 hex>-<16 hex>-<2 hex>`, lower case, ids not all zeros; a later version may add
    /// fields after a further '-'; version ff is invalid.
    public static func isWellFormed(_ header: String) -> Bool {
        let bytes = Array(header.utf8.prefix(56))
        guard bytes.count >= 55 else { return false }
        func isHex(_ byte: UInt8) -> Bool { (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) }
        func hex(_ range: Range<Int>) -> Bool { bytes[range].allSatisfy(isHex) }
        func zeros(_ range: Range<Int>) -> Bool { bytes[range].allSatisfy { $0 == 0x30 } }
        guard hex(0..<2), bytes[2] == 0x2D, hex(3..<35), bytes[35] == 0x2D, hex(36..<52), bytes[52] == 0x2D, hex(53..<55) else { return false }
        guard !(bytes[0] == 0x66 && bytes[1] == 0x66), !zeros(3..<35), !zeros(36..<52) else { return false }
        let isVersionZero = bytes[0] == 0x30 && bytes[1] == 0x30
        return isVersionZero ? header.utf8.count == 55 : (bytes.count == 55 || bytes[55] == 0x2D)
    }
}
