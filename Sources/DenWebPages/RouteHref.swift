/// The URL of a Den route on this server: the `href` of a link, the `Location` of a redirect.
///
/// A route is already URL-shaped (`path?query#fragment`; the router percent-decodes path
/// segments and ignores leading slashes), so the URL is `/` + the route with its leading slashes
/// dropped and every character a URL cannot hold percent-encoded as UTF-8; valid `%XX` escapes
/// are kept, a `%` that starts none becomes `%25`. The server reads the route back as the request
/// target without its leading `/`.
///
/// The result is always a path on this server: it starts with exactly one `/` (a backslash is
/// encoded, so no `/\`), so a route such as `//evil.example` or `javascript:alert(1)` stays a
/// path here. It is plain ASCII with no space, `"`, `<`, `>` or `\`: safe in a header, and in an
/// attribute once escaped (a `'` may remain).
public enum RouteHref {
    public static func href(for route: String) -> String {
        let bytes = Array(route.utf8.drop { $0 == UInt8(ascii: "/") })
        var result = "/"
        var inFragment = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                if index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) {
                    result += String(decoding: bytes[index...(index + 2)], as: UTF8.self)
                    index += 3
                    continue
                }
                result += "%25"
            } else if byte == UInt8(ascii: "#") && !inFragment {
                inFragment = true
                result += "#"
            } else if keptAsIs(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += percentEscape(byte)
            }
            index += 1
        }
        return result
    }

    /// RFC 3986 unreserved and sub-delimiter characters, `:`, `@`, `/` and `?`: what a path,
    /// query and fragment may hold unescaped.
    private static func keptAsIs(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,;=:@/?".utf8.contains(byte)
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
             UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default:
            false
        }
    }

    private static func percentEscape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(["%", digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
