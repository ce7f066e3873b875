import Foundation

// The JSON documents of the `http.get` host service (docs/ABI.md), shared by both sides:
//
//   http.get  {"url": "https://…", "timeout_ms": 10000, "max_bytes": 5242880,
//              "headers": {"Accept": "application/xml"}}     (all but url optional)
//          -> {"status": 200, "headers": {"content-type": "…"}, "body": "<base64>"}
//
// Any status the server sends (404, 503, ...) is an answer, not a failure: the module decides.
// Failures (bad URL, connection refused, timed out, response too large) are service errors whose
// message names the URL, the cause and what to do.

/// The bounds of `http.get`.
public enum HTTPLimits {
    /// Whole-request deadline when the request names none: 10 s.
    public static let defaultTimeoutMilliseconds = 10_000
    /// The longest deadline a request may ask for: 60 s.
    public static let maxTimeoutMilliseconds = 60_000
    /// Largest body accepted when the request names no limit: 5 MiB.
    public static let defaultMaxBytes = 5 << 20
    /// The largest `max_bytes` a request may ask for: 20 MiB.
    public static let maxMaxBytes = 20 << 20
}

/// `http.get` request.
public struct HTTPGetRequest: Codable, Sendable, Equatable {
    public static let operation = "http.get"

    /// An absolute `http` or `https` URL.
    public var url: String
    /// Deadline for the whole exchange (connect, headers, body), 1...60000 ms; nil for 10000.
    public var timeoutMilliseconds: Int?
    /// Largest body accepted, 1...20 MiB; nil for 5 MiB. A larger response is abandoned.
    public var maxBytes: Int?
    /// Extra request headers.
    public var headers: [String: String]?

    public init(url: String, timeoutMilliseconds: Int? = nil, maxBytes: Int? = nil, headers: [String: String]? = nil) {
        self.url = url
        self.timeoutMilliseconds = timeoutMilliseconds
        self.maxBytes = maxBytes
        self.headers = headers
    }

    private enum CodingKeys: String, CodingKey {
        case url
        case timeoutMilliseconds = "timeout_ms"
        case maxBytes = "max_bytes"
        case headers
    }
}

/// `http.get` answer: what the server sent, whatever the status.
public struct HTTPResponse: Codable, Sendable, Equatable {
    public var status: Int
    /// Response headers, names lower-cased.
    public var headers: [String: String]
    /// The body (base64 in JSON).
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The body as UTF-8 text, or nil when it is not valid UTF-8.
    public var text: String? { String(data: body, encoding: .utf8) }

    /// The value of header `name` (any case).
    public func header(_ name: String) -> String? {
        headers[name.lowercased()] ?? headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Outbound HTTP GET through the host (service `http.get`). An interactor or a rates provider
/// depends on this protocol; its tests use `HTTPFetcherStub` or their own mock.
public protocol HTTPFetching: Sendable {
    /// Fetches `url`. `timeout` bounds the whole exchange (nil: 10 s, at most 60 s); `maxBytes`
    /// bounds the body (nil: 5 MiB, at most 20 MiB). Non-2xx statuses are returned, not thrown.
    func get(_ url: String, timeout: Duration?, maxBytes: Int?, headers: [String: String]) throws -> HTTPResponse
}

extension HTTPFetching {
    public func get(_ url: String, timeout: Duration? = nil, maxBytes: Int? = nil) throws -> HTTPResponse {
        try get(url, timeout: timeout, maxBytes: maxBytes, headers: [:])
    }
}

extension Duration {
    /// Whole milliseconds, rounded up (so 1 ns asks for 1 ms, not 0).
    var wholeMillisecondsRoundingUp: Int {
        let (seconds, attoseconds) = components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? Int.min : Int.max }
        var extra = attoseconds / perMillisecond
        if attoseconds % perMillisecond > 0 { extra += 1 }
        return Int(clamping: milliseconds.addingReportingOverflow(extra).partialValue)
    }
}

/// `HTTPFetching` over the host's `http.get` service. Errors are `HostServiceError`s.
public struct HostHTTPClient: HTTPFetching {
    private let host: HostServices

    public init(_ host: HostServices) {
        self.host = host
    }

    public func get(_ url: String, timeout: Duration?, maxBytes: Int?, headers: [String: String]) throws -> HTTPResponse {
        let request = HTTPGetRequest(url: url, timeoutMilliseconds: timeout?.wholeMillisecondsRoundingUp,
                                     maxBytes: maxBytes, headers: headers.isEmpty ? nil : headers)
        return try host.call(HTTPGetRequest.operation, request, as: HTTPResponse.self)
    }
}

/// An `HTTPFetching` that answers from a closure, for module tests and previews.
///
///     let fetcher = HTTPFetcherStub { request in
///         HTTPResponse(status: 200, body: Data(ratesXML.utf8))
///     }
public struct HTTPFetcherStub: HTTPFetching {
    private let respond: @Sendable (HTTPGetRequest) throws -> HTTPResponse

    public init(_ respond: @escaping @Sendable (HTTPGetRequest) throws -> HTTPResponse) {
        self.respond = respond
    }

    public func get(_ url: String, timeout: Duration?, maxBytes: Int?, headers: [String: String]) throws -> HTTPResponse {
        try respond(HTTPGetRequest(url: url, timeoutMilliseconds: timeout?.wholeMillisecondsRoundingUp,
                                   maxBytes: maxBytes, headers: headers.isEmpty ? nil : headers))
    }
}
