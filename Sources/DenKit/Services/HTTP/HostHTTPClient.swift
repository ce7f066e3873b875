#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
