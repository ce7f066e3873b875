/// A segment's bytes within the decoded path buffer.
struct RouteSegmentRange {
    var start: Int
    var end: Int
}

/// Where the parts of a route lie, as offsets into its UTF-8 bytes.
struct RouteLayout {
    /// The path without leading and trailing slashes (non-empty).
    var pathStart: Int
    var pathEnd: Int
    /// Slashes inside the path: the path has at most this many plus one segments.
    var slashCount: Int
    /// The query, between `?` and `#` (or the end), if there is a `?` before any `#`.
    var query: Range<Int>?
}

/// Splits and validates route strings, `path?query#fragment`, working on UTF-8 bytes.
///
/// `scan` makes one pass over the whole route (length, control characters, `?`/`#`
/// boundaries); `decodePath` makes one pass over the path, percent-decoding into a caller-owned
/// buffer and recording segment ranges. Together they parse the route exactly once.
package enum RouteStringParser {
    /// Routes longer than this (in UTF-8 bytes) are refused before any work is done on them.
    package static let maximumByteCount = 2048

    static func scan(_ raw: UnsafeBufferPointer<UInt8>) -> Result<RouteLayout, MalformedRouteReason> {
        guard !raw.isEmpty else { return .failure(.empty) }
        guard raw.count <= maximumByteCount else { return .failure(.tooLong(byteCount: raw.count)) }

        var pathEnd = raw.count
        var queryStart = -1
        var queryEnd = raw.count
        var seenFragment = false
        var previous: UInt8 = 0
        for offset in 0..<raw.count {
            let byte = raw[offset]
            if byte < 0x20 || byte == 0x7F {
                return .failure(.controlCharacter(Unicode.Scalar(byte), byteOffset: offset))
            }
            if previous == 0xC2, byte >= 0x80, byte <= 0x9F {  // C1 controls are C2 80...C2 9F
                return .failure(.controlCharacter(Unicode.Scalar(byte), byteOffset: offset - 1))
            }
            if !seenFragment {
                if byte == UInt8(ascii: "#") {
                    seenFragment = true
                    if queryStart >= 0 { queryEnd = offset } else { pathEnd = offset }
                } else if byte == UInt8(ascii: "?"), queryStart < 0 {
                    pathEnd = offset
                    queryStart = offset + 1
                }
            }
            previous = byte
        }

        var start = 0
        while start < pathEnd, raw[start] == UInt8(ascii: "/") { start += 1 }
        var end = pathEnd
        while end > start, raw[end - 1] == UInt8(ascii: "/") { end -= 1 }
        guard start < end else { return .failure(.noPath) }
        var slashCount = 0
        for offset in start..<end where raw[offset] == UInt8(ascii: "/") { slashCount += 1 }
        return .success(RouteLayout(
            pathStart: start, pathEnd: end, slashCount: slashCount,
            query: queryStart >= 0 ? queryStart..<queryEnd : nil))
    }

    /// Percent-decodes the path into `output` (segments stay separated by `/`, so a catch-all's
    /// value is one contiguous range) and records each segment's range. `output` needs room for
    /// the path's bytes, `segments` for `slashCount + 1` ranges. Returns the segment count.
    static func decodePath(
        _ raw: UnsafeBufferPointer<UInt8>, _ layout: RouteLayout,
        into output: UnsafeMutableBufferPointer<UInt8>, segments: UnsafeMutableBufferPointer<RouteSegmentRange>
    ) -> Result<Int, MalformedRouteReason> {
        var written = 0
        var segmentCount = 0
        var segmentStart = 0
        var hasEscape = false
        var offset = layout.pathStart

        func finishSegment() -> MalformedRouteReason? {
            let part = RoutePart.segment(segmentCount + 1)
            guard written > segmentStart else { return .emptySegment(part) }
            // Checked after decoding, so `%2E%2E` and `.%2e` are caught like `..`.
            let decodedSegment = UnsafeBufferPointer(rebasing: output[segmentStart..<written])
            if RouteSegmentMatcher.isDotSegment(decodedSegment) {
                return .dotSegment(String(decoding: decodedSegment, as: UTF8.self), in: part)
            }
            if hasEscape {
                // Escapes can produce invalid UTF-8 or control characters; raw bytes cannot.
                let decoded = UnsafeBufferPointer(rebasing: output[segmentStart..<written])
                if let failure = RoutePercentEncoding.validate(decoded, allowControlCharacters: false) {
                    return MalformedRouteReason(failure, in: part)
                }
            }
            segments[segmentCount] = RouteSegmentRange(start: segmentStart, end: written)
            segmentCount += 1
            return nil
        }

        while offset < layout.pathEnd {
            let byte = raw[offset]
            if byte == UInt8(ascii: "/") {
                if let failure = finishSegment() { return .failure(failure) }
                output[written] = byte
                written += 1
                segmentStart = written
                hasEscape = false
                offset += 1
            } else if byte == UInt8(ascii: "%") {
                guard offset + 2 < layout.pathEnd,
                      let high = RoutePercentEncoding.hexValue(raw[offset + 1]),
                      let low = RoutePercentEncoding.hexValue(raw[offset + 2])
                else {
                    let escape = String(decoding: raw[offset..<min(offset + 3, layout.pathEnd)], as: UTF8.self)
                    return .failure(.invalidPercentEncoding(escape: escape, in: .segment(segmentCount + 1)))
                }
                output[written] = high << 4 | low
                written += 1
                hasEscape = true
                offset += 3
            } else {
                output[written] = byte
                written += 1
                offset += 1
            }
        }
        if let failure = finishSegment() { return .failure(failure) }
        return .success(segmentCount)
    }
}
