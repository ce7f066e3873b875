import FoundationEssentials

// The documents between the host's `http` service and `libDenHTTPTransport.so`, the library that
// does the network I/O. The transport is a separate library so that FoundationNetworking (libcurl
// and some thirty libraries behind it) loads on the first fetch instead of on every `den` start.
// Both sides are built from this package at the same time; the JSON only crosses an image boundary.
// The C function that carries them: den_http_transport_get_fn in den_libraries.h.

/// One validated GET.
public struct TransportRequest: Codable, Sendable, Equatable {
    public var url: String
    public var headers: [String: String]
    public var timeoutMilliseconds: Int
    public var maxBytes: Int
    /// false: a 3xx answer is returned as it is, for den to judge where it leads (a module's
    /// http permission covers every hop); true (the default) follows redirects in the transport.
    public var followsRedirects: Bool

    public init(url: String, headers: [String: String], timeoutMilliseconds: Int, maxBytes: Int, followsRedirects: Bool = true) {
        self.url = url
        self.headers = headers
        self.timeoutMilliseconds = timeoutMilliseconds
        self.maxBytes = maxBytes
        self.followsRedirects = followsRedirects
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        headers = try container.decode([String: String].self, forKey: .headers)
        timeoutMilliseconds = try container.decode(Int.self, forKey: .timeoutMilliseconds)
        maxBytes = try container.decode(Int.self, forKey: .maxBytes)
        followsRedirects = try container.decodeIfPresent(Bool.self, forKey: .followsRedirects) ?? true
    }
}

/// How a GET ended.
public enum TransportOutcome: Codable, Sendable, Equatable {
    /// Any HTTP answer, whatever its status; header names lower-cased.
    case fetched(status: Int, headers: [String: String], body: Data)
    case failed(TransportFailure)
}

public enum TransportFailure: Codable, Sendable, Equatable, Error {
    case timedOut
    /// The answer passed `maxBytes`; `declared` is its announced Content-Length, if any.
    case tooLarge(declared: Int64?)
    /// A network failure: `code` is a `URLError.Code` raw value (`TransportErrorCode`).
    case transport(code: Int, description: String)
}

/// The `URLError.Code` values the host explains, by their documented raw values: the host itself
/// imports FoundationEssentials only, which has no `URLError`.
public enum TransportErrorCode: Int, Sendable {
    case cancelled = -999
    case badURL = -1000
    case timedOut = -1001
    case cannotFindHost = -1003
    case cannotConnectToHost = -1004
    case networkConnectionLost = -1005
    case dnsLookupFailed = -1006
    case httpTooManyRedirects = -1007
    case notConnectedToInternet = -1009
    case redirectToNonExistentLocation = -1010
    case badServerResponse = -1011
    case cannotParseResponse = -1017
    case secureConnectionFailed = -1200
    case serverCertificateHasBadDate = -1201
    case serverCertificateUntrusted = -1202
    case serverCertificateHasUnknownRoot = -1203
    case serverCertificateNotYetValid = -1204
    case clientCertificateRejected = -1205
    case clientCertificateRequired = -1206
}
