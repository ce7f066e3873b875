import FoundationEssentials

/// Where `den serve --otlp-endpoint` sends its spans: an OTLP/HTTP receiver's URL. A bare
/// address (`http://collector:4318`) gets OTLP's traces path, `/v1/traces`, as
/// OTEL_EXPORTER_OTLP_ENDPOINT does; a URL with a path is used as it is.
public struct OTLPEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// The URL spans are POSTed to.
    public let url: String

    public var description: String { url }

    public static let example = "http://127.0.0.1:4318"

    /// What is wrong with a URL given for the endpoint, and the form to use.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String

        init(_ description: String) {
            self.description = description
        }
    }

    public static func parse(_ text: String) -> Result<OTLPEndpoint, Problem> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let shown = "'\(text.prefix(200))'"
        guard !trimmed.isEmpty else { return .failure(Problem("is empty; give the OTLP/HTTP receiver's URL, e.g. \(example)")) }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased() else {
            return .failure(Problem("\(shown) is not a URL; give the OTLP/HTTP receiver's URL, e.g. \(example)"))
        }
        guard scheme == "http" || scheme == "https" else {
            return .failure(Problem("\(shown): den exports spans over OTLP/HTTP, so the URL starts with http:// or https:// (not \(scheme)://), e.g. \(example)"))
        }
        guard let host = url.host, !host.isEmpty else {
            return .failure(Problem("\(shown) names no host; e.g. \(example)"))
        }
        guard url.query == nil, url.fragment == nil, url.user == nil else {
            return .failure(Problem("\(shown) has a query, a fragment or a user name; give only the scheme, the host, the port and any path, e.g. \(example)"))
        }
        if let port = url.port, !(1...65535).contains(port) {
            return .failure(Problem("\(shown): port \(port) is not a port (1 to 65535)"))
        }
        let path = url.path
        let base = trimmed.hasSuffix("/") ? String(trimmed.dropLast()) : trimmed
        return .success(OTLPEndpoint(url: path.isEmpty || path == "/" ? base + "/v1/traces" : trimmed))
    }

    private init(url: String) {
        self.url = url
    }
}
