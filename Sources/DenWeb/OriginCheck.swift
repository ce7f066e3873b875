import Hummingbird

/// A state-changing post must come from this server's own pages: one whose `Origin` (or, without
/// it, `Referer`) names another host is refused before its body is read, on top of the CSRF
/// token. `Origin: null` names no site (browsers send it for a form posted from a page under
/// `Referrer-Policy: no-referrer`, as den's own pages are), so it and a post with neither header
/// rely on the token alone.
enum OriginCheck {
    /// The origin named when it is not this server (`Host`), nil when the post may go on.
    static func foreignOrigin(of request: Request) -> String? {
        let named = request.headers[.origin] ?? request.headers[.referer]
        guard let named, named != "null" else { return nil }
        // HTTP/1 `Host` arrives as the request's authority.
        guard let host = request.head.authority?.lowercased() else { return named }
        guard let authority = authority(of: named) else { return named }
        return authority == host ? nil : named
    }

    /// The `host[:port]` of a URL, lower case; nil when it has none.
    static func authority(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // userinfo never belongs in an origin; drop it rather than be fooled by it.
        let hostPort = authority.split(separator: "@").last.map(String.init) ?? ""
        return hostPort.isEmpty ? nil : hostPort.lowercased()
    }

    static func refusal(_ origin: String) -> Response {
        WebResponses.error(.forbidden, title: "This form came from another site",
            message: "The form was posted from \(FormBody.shown(origin)), not from this server's own pages, so den did not act on it.",
            hint: "Open the page on this server, and use its buttons.")
    }
}
