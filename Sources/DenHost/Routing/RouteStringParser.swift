/// A route string split once into what the router needs.
struct ParsedRoute {
    /// Percent-decoded path segments; slices of the route itself unless a segment had escapes.
    var segments: [Substring]
    /// The raw query (between `?` and `#`), not yet decoded; nil when there is no `?`.
    var query: Substring?
}

/// Splits and validates route strings: `path?query#fragment`. One pass finds control characters
/// and the `?`/`#` boundaries, a second splits the path; no copies unless a segment needs decoding.
enum RouteStringParser {
    /// Routes longer than this (in UTF-8 bytes) are refused before any work is done on them.
    static let maximumByteCount = 2048

    static func parse(_ route: String) -> Result<ParsedRoute, MalformedRouteReason> {
        let utf8 = route.utf8
        let byteCount = utf8.count
        guard byteCount > 0 else { return .failure(.empty) }
        guard byteCount <= maximumByteCount else { return .failure(.tooLong(byteCount: byteCount)) }

        // Pass 1: control characters anywhere; where the path ends and where the query is.
        var pathEnd = utf8.endIndex
        var queryStart: String.Index?
        var queryEnd = utf8.endIndex
        var seenQuery = false
        var seenFragment = false
        var previous: UInt8 = 0
        var offset = 0
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte < 0x20 || byte == 0x7F {
                return .failure(.controlCharacter(Unicode.Scalar(byte), byteOffset: offset))
            }
            if previous == 0xC2, (0x80...0x9F).contains(byte) {  // C1 controls are C2 80...C2 9F
                return .failure(.controlCharacter(Unicode.Scalar(byte), byteOffset: offset - 1))
            }
            if !seenFragment {
                if byte == UInt8(ascii: "#") {
                    seenFragment = true
                    if seenQuery { queryEnd = index } else { pathEnd = index }
                } else if byte == UInt8(ascii: "?"), !seenQuery {
                    seenQuery = true
                    pathEnd = index
                    queryStart = utf8.index(after: index)
                }
            }
            previous = byte
            offset += 1
            utf8.formIndex(after: &index)
        }

        // Pass 2: the path, without leading and trailing slashes, split on '/'.
        var start = utf8.startIndex
        while start != pathEnd, utf8[start] == UInt8(ascii: "/") { utf8.formIndex(after: &start) }
        var end = pathEnd
        while end != start, utf8[utf8.index(before: end)] == UInt8(ascii: "/") { utf8.formIndex(before: &end) }
        guard start != end else { return .failure(.noPath) }

        var segments: [Substring] = []
        segments.reserveCapacity(8)
        var segmentStart = start
        var hasEscape = false
        index = start
        while true {
            let atEnd = index == end
            if atEnd || utf8[index] == UInt8(ascii: "/") {
                let part = RoutePart.segment(segments.count + 1)
                guard segmentStart != index else { return .failure(.emptySegment(part)) }
                let raw = route[segmentStart..<index]
                if hasEscape {
                    switch RoutePercentEncoding.decode(raw, plusIsSpace: false, allowControlCharacters: false) {
                    case .success(let decoded): segments.append(decoded)
                    case .failure(.badEscape(let escape)): return .failure(.invalidPercentEncoding(escape: escape, in: part))
                    case .failure(.invalidUTF8): return .failure(.invalidUTF8(in: part))
                    case .failure(.controlCharacter(let scalar)): return .failure(.encodedControlCharacter(scalar, in: part))
                    }
                } else {
                    segments.append(raw)
                }
                if atEnd { break }
                utf8.formIndex(after: &index)
                segmentStart = index
                hasEscape = false
            } else {
                if utf8[index] == UInt8(ascii: "%") { hasEscape = true }
                utf8.formIndex(after: &index)
            }
        }
        return .success(ParsedRoute(segments: segments, query: queryStart.map { route[$0..<queryEnd] }))
    }
}
