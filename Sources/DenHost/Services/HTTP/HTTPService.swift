import DenLibraryClients
import DenLibraryContracts
import DenKit
import DenSupport
import FoundationEssentials
import DenPermissions

/// Host service `http.get`: an outbound GET with a deadline and a size limit (see
/// `HTTPGetRequest` / `HTTPResponse` in DenKit for the JSON).
///
/// Any HTTP status is an answer; failures to get one (bad URL, connection refused, timed out,
/// response too large) are `ServiceFailure`s naming the URL, the cause and what to do: an invalid
/// request is `.invalidArgument`, a network failure `.unavailable`. The call blocks the calling
/// thread (the ABI is synchronous) for at most the request's timeout.
package struct HTTPService: HostService {
    package var operations: [String] { [HTTPGetRequest.operation] }
    /// How many redirects a checked fetch follows, each hop judged by the module's permission.
    static let maxRedirects = 10
    private let gate: PermissionGate

    package init(gate: PermissionGate = PermissionGate()) {
        self.gate = gate
    }

    package func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data {
        guard operation == HTTPGetRequest.operation else {
            throw ServiceFailure(.notFound, "unknown operation '\(operation)'; the http service answers \(HTTPGetRequest.operation)")
        }
        let request = try decode(HTTPGetRequest.self, request, for: operation)
        return try encode(try get(request, caller: caller), for: operation)
    }

    /// Performs one `http.get` for `caller`: every host it reaches, the first and each one a
    /// redirect leads to, must be one the caller's `http` permission names.
    package func get(_ request: HTTPGetRequest, caller: ServiceCaller? = nil) throws(ServiceFailure) -> HTTPResponse {
        var url = try Self.validatedURL(request.url)
        let checked = caller?.permissions != nil
        if let caller, checked { try check(url, caller: caller, redirectedFrom: nil) }
        let timeout = request.timeoutMilliseconds ?? HTTPLimits.defaultTimeoutMilliseconds
        guard (1...HTTPLimits.maxTimeoutMilliseconds).contains(timeout) else {
            throw .invalid("http.get \(request.url): timeout_ms must be between 1 and \(HTTPLimits.maxTimeoutMilliseconds) (got \(timeout)); leave it out for \(HTTPLimits.defaultTimeoutMilliseconds)")
        }
        let maxBytes = request.maxBytes ?? HTTPLimits.defaultMaxBytes
        guard (1...HTTPLimits.maxMaxBytes).contains(maxBytes) else {
            throw .invalid("http.get \(request.url): max_bytes must be between 1 and \(HTTPLimits.maxMaxBytes) (20 MiB) (got \(maxBytes)); leave it out for \(HTTPLimits.defaultMaxBytes) (5 MiB)")
        }
        var headers = request.headers ?? [:]
        for (name, value) in headers {
            if let problem = Self.problem(withHeader: name, value: value) {
                throw .invalid("http.get \(request.url): \(problem)")
            }
        }
        // The server the module fetches from continues den's trace, unless the module sent a
        // traceparent of its own (W3C Trace Context).
        let span = CallTrace.span
        if let span {
            span.set("url.full", .string(Self.withoutSecrets(url)))
            if !headers.keys.contains(where: { $0.lowercased() == "traceparent" }) { headers["traceparent"] = span.traceparent }
        }

        var hops = 0
        while true {
            let transport = TransportRequest(url: url.absoluteString, headers: headers, timeoutMilliseconds: timeout, maxBytes: maxBytes,
                                             followsRedirects: !checked)
            switch try HTTPTransport.shared.get(transport) {
            case .fetched(let status, let answerHeaders, let body):
                span?.set("http.response.status_code", .int(status))
                // A checked fetch follows redirects here, so that each hop meets the permission.
                guard checked, let caller, [301, 302, 303, 307, 308].contains(status), let location = answerHeaders["location"] else {
                    return HTTPResponse(status: status, headers: answerHeaders, body: body)
                }
                hops += 1
                guard hops <= Self.maxRedirects else {
                    throw .unavailable("http.get \(request.url) failed: more than \(Self.maxRedirects) redirects. Fetch the final URL directly.")
                }
                guard let next = URL(string: location, relativeTo: url)?.absoluteURL,
                      let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https", next.host != nil else {
                    throw .unavailable("http.get \(request.url) failed: the server redirected to '\(ModuleText.singleLine(location, limit: 200))', which is not an http(s) URL den can follow")
                }
                try check(next, caller: caller, redirectedFrom: request.url)
                url = next
            case .failed(let failure):
                throw .unavailable("http.get \(request.url) failed: \(Self.explain(failure, url: url, timeout: timeout, maxBytes: maxBytes))")
            }
        }
    }

    /// The URL as a span shows it: no user name, password, query or fragment, which may hold a key.
    static func withoutSecrets(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "" }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? ""
    }

    /// Refuses a URL whose host the caller's permission does not name (`PermissionGate`).
    private func check(_ url: URL, caller: ServiceCaller, redirectedFrom asked: String?) throws(ServiceFailure) {
        let raw = url.host(percentEncoded: true) ?? ""
        guard let host = HostPattern.normalise(raw) else {
            throw gate.refuseUnnameable(raw, caller: caller, redirectedFrom: asked)
        }
        do {
            try gate.check(.http(host), caller: caller)
        } catch {
            guard let asked else { throw error }
            throw ServiceFailure(.permissionDenied, "http.get \(ModuleText.singleLine(asked, limit: 200)) was redirected to \(host): \(error.message)")
        }
    }

    static func validatedURL(_ text: String) throws(ServiceFailure) -> URL {
        let example = "give an absolute http:// or https:// URL such as https://example.com/rates.xml"
        guard !text.isEmpty else {
            throw .invalid("http.get: bad URL: the url is empty; \(example)")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw .invalid("http.get: bad URL '\(text)': it is not an absolute URL; \(example)")
        }
        guard scheme == "http" || scheme == "https" else {
            throw .invalid("http.get: bad URL '\(text)': scheme '\(scheme)' is not supported; only http and https URLs can be fetched")
        }
        guard let host = url.host, !host.isEmpty else {
            throw .invalid("http.get: bad URL '\(text)': it names no host; \(example)")
        }
        return url
    }

    static func problem(withHeader name: String, value: String) -> String? {
        if name.isEmpty || !name.utf8.allSatisfy(isTokenByte) {
            return "header name '\(name)' is not valid; use letters, digits and - (e.g. Accept)"
        }
        // The host is the URL's, the one a module's http permission was checked against.
        if name.lowercased() == "host" {
            return "the Host header is set by den from the URL's host (the host your permission names); leave it out"
        }
        if value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            return "the value of header '\(name)' contains a line break or NUL; remove it"
        }
        return nil
    }

    /// RFC 9110's `tchar`: the bytes a header name may hold.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    static func explain(_ failure: TransportFailure, url: URL, timeout: Int, maxBytes: Int) -> String {
        if case .transport(let code, _) = failure, code == TransportErrorCode.timedOut.rawValue {
            return explain(.timedOut, url: url, timeout: timeout, maxBytes: maxBytes)
        }
        switch failure {
        case .timedOut:
            return "timed out after \(timeout) ms. The server is slow or unreachable: try again later, or raise timeout_ms (at most \(HTTPLimits.maxTimeoutMilliseconds))."
        case .tooLarge(let declared):
            let said = declared.map { " (the server announced \($0) bytes)" } ?? ""
            return "the response is larger than \(maxBytes) bytes, the max_bytes limit\(said); the transfer was stopped. Raise max_bytes (at most \(HTTPLimits.maxMaxBytes)) or fetch a smaller resource."
        case .transport(let rawCode, let description):
            let code = TransportErrorCode(rawValue: rawCode)
            let place = "\(url.host ?? "?")\(url.port.map { ":\($0)" } ?? "")"
            switch code {
            case .cannotConnectToHost:
                return "connection refused by \(place) (\(description)). Check that the server is running and that the URL's host and port are right."
            case .cannotFindHost, .dnsLookupFailed:
                return "host '\(url.host ?? "?")' not found (\(description)). Check the host name and the network connection."
            case .notConnectedToInternet, .networkConnectionLost:
                return "the network is unavailable or the connection dropped (\(description)). Check the network connection and try again."
            case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
                 .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
                 .clientCertificateRequired:
                return "the TLS connection to \(place) failed (\(description)). Check the server's certificate and that the URL's scheme (http/https) is right."
            case .httpTooManyRedirects, .redirectToNonExistentLocation:
                return "too many or broken redirects (\(description)). Fetch the final URL directly."
            case .badServerResponse, .cannotParseResponse:
                return "the server's answer is not valid HTTP (\(description)). Check that the URL points to an HTTP server."
            case .cancelled:
                return "the transfer was cancelled (\(description)). Try again."
            default:
                return "\(description). Check the URL and the network connection, then try again."
            }
        }
    }
}
