#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
