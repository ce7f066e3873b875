#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
