import Hummingbird

/// Reads the `den_session` cookie from a request's Cookie headers. Hummingbird's `request.cookies`
/// parses every cookie of the request into a value with attributes; a page needs one value.
enum SessionCookie {
    static let name = "den_session"
    /// The revision of the session's saved copy that the browser's last answer came from: a host
    /// holding that revision answers without reading storage (`BrowserSessionTable`). Not a
    /// secret: it opens nothing without the session cookie.
    static let revisionName = "den_rev"

    static func value(in request: Request) -> String? {
        value(named: name, in: request)
    }

    static func revision(in request: Request) -> String? {
        value(named: revisionName, in: request)
    }

    static func value(named name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.utf8.split(separator: UInt8(ascii: ";")) {
                // Cookie pairs are separated by "; "; a name never holds spaces or "=".
                let trimmed = pair.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                guard let equals = trimmed.firstIndex(of: UInt8(ascii: "=")),
                      trimmed[..<equals].elementsEqual(name.utf8) else { continue }
                return String(Substring(trimmed[trimmed.index(after: equals)...]))
            }
        }
        return nil
    }
}
