/// Where in a route string a problem was found.
public enum RoutePart: Sendable, Hashable, CustomStringConvertible {
    /// A path segment, counted from 1 after leading slashes.
    case segment(Int)
    /// The query string (after `?`).
    case query

    public var description: String {
        switch self {
        case .segment(let number): "path segment \(number)"
        case .query: "the query string"
        }
    }
}

/// Why a route string could not even be parsed. Each `description` says what to change.
public enum MalformedRouteReason: Error, Sendable, Hashable, CustomStringConvertible {
    /// The route is the empty string.
    case empty
    /// Longer than `RouteStringParser.maximumByteCount` (2,048) UTF-8 bytes.
    case tooLong(byteCount: Int)
    /// A raw control character (U+0000-U+001F, U+007F-U+009F) at a UTF-8 byte offset.
    case controlCharacter(Unicode.Scalar, byteOffset: Int)
    /// Nothing but slashes before the `?`/`#`, e.g. `/` or `?a=1`.
    case noPath
    /// Two slashes in a row inside the path, e.g. `jogs//42`.
    case emptySegment(RoutePart)
    /// `%` not followed by two hexadecimal digits; `escape` is the offending text, e.g. `%zz`.
    case invalidPercentEncoding(escape: String, in: RoutePart)
    /// Percent-escapes that decode to bytes that are not UTF-8.
    case invalidUTF8(in: RoutePart)
    /// A percent-escape decoding to a control character inside the path, e.g. `%0A`.
    case encodedControlCharacter(Unicode.Scalar, in: RoutePart)
    /// A path segment that is `.` or `..` once decoded (so `%2E%2E` too): routes name things,
    /// they are not file paths, and a `..` would let a catch-all value climb out of its folder.
    case dotSegment(String, in: RoutePart)
    /// An encoded separator (`%2F`) in a catch-all's segment that leaves an empty part in its
    /// value, e.g. `f/a%2F%2Fb` or `f/a%2F`.
    case encodedEmptyPart(in: RoutePart)

    public var description: String {
        switch self {
        case .empty:
            "the route is empty; give a route such as \"about\" or \"jogs/42\""
        case .tooLong(let byteCount):
            "the route is \(byteCount) bytes long, over the limit of \(RouteStringParser.maximumByteCount); "
                + "shorten it (move large data out of the route)"
        case .controlCharacter(let scalar, let byteOffset):
            "control character \(routeScalarName(scalar)) at byte \(byteOffset); remove it or percent-encode it in a query value"
        case .noPath:
            "the route has no path before '?' or '#'; start it with a path such as \"about\""
        case .emptySegment(let part):
            "\(part) is empty (two '/' in a row); remove the extra '/'"
        case .invalidPercentEncoding(let escape, let part):
            "invalid percent-escape \"\(escape)\" in \(part): '%' must be followed by two hex digits; write a literal '%' as %25"
        case .invalidUTF8(let part):
            "the percent-escapes in \(part) do not decode to UTF-8 text; encode text as UTF-8 bytes (e.g. é is %C3%A9)"
        case .encodedControlCharacter(let scalar, let part):
            "\(part) decodes to control character \(routeScalarName(scalar)), which paths cannot carry; remove it"
        case .dotSegment(let segment, let part):
            "segment '\(segment)' is not allowed (\(part)): routes have no relative segments ('.' and '..', "
                + "even percent-encoded as %2E); remove it"
        case .encodedEmptyPart(let part):
            "\(part) holds an encoded '/' (%2F) that leaves an empty part in the route's path value; "
                + "remove the extra %2F"
        }
    }
}

extension MalformedRouteReason {
    /// The reason for a decoding failure found in `part`.
    init(_ failure: RoutePercentEncoding.DecodingFailure, in part: RoutePart) {
        switch failure {
        case .badEscape(let escape): self = .invalidPercentEncoding(escape: escape, in: part)
        case .invalidUTF8: self = .invalidUTF8(in: part)
        case .controlCharacter(let scalar): self = .encodedControlCharacter(scalar, in: part)
        }
    }
}
