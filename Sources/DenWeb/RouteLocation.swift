/// Den routes as URL paths and back: `GET /convert/1/usd/eur?x=1` asks for the route
/// `convert/1/usd/eur?x=1`, and a redirect to a route goes to `/` + the route. Den's router
/// decodes percent escapes itself, so a route passes through the URL unchanged; only characters
/// a URL cannot carry as they are (spaces, quotes, `#`, `\`, control and non-ASCII characters)
/// are escaped, which also keeps a module's route from ever splitting a `Location` header.
enum RouteLocation {
    /// The path (and query) that asks for `route`. A route that starts with `/` gets it escaped,
    /// so a Location header can never become `//other.host` (a redirect off the site).
    static func path(for route: String) -> String {
        var result = "/"
        for (offset, byte) in route.utf8.enumerated() {
            if isKept(byte), !(offset == 0 && byte == UInt8(ascii: "/")) {
                result.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                result += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return result
    }

    /// The route a request's path and query ask for; "" for `/`, whatever its query (a shared
    /// link's `?utm_source=…` still opens the home page).
    static func route(path: String, query: String?) -> String {
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        guard let query, !query.isEmpty, !trimmed.isEmpty else { return trimmed }
        return trimmed + "?" + query
    }

    /// Whether two routes are the same address (as the browser would send them back).
    static func same(_ a: String, _ b: String) -> Bool {
        path(for: a) == path(for: b)
    }

    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~!$&'()*+,;=:@/?%".utf8.contains(byte)
        }
    }
}
