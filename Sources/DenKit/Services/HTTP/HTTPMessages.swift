#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The JSON documents of the `http.get` host service (docs/ABI.md), shared by both sides:
//
//   http.get  {"url": "https://…", "timeout_ms": 10000, "max_bytes": 5242880,
//              "headers": {"Accept": "application/xml"}}     (all but url optional)
//          -> {"status": 200, "headers": {"content-type": "…"}, "body": "<base64>"}
//
// Any status the server sends (404, 503, ...) is an answer, not a failure: the module decides.
// Failures (bad URL, connection refused, timed out, response too large) are service errors whose
// message names the URL, the cause and what to do.

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
        headers[name.lowercased()] ?? headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}
