/// Route-length arithmetic for patterns. `resolve` refuses routes over
/// `RouteStringParser.maximumByteCount` bytes, so a pattern only longer routes could match would
/// be dead; patterns are measured against that limit at registration.
enum RouteLengthLimit {
    static var maximumByteCount: Int { RouteStringParser.maximumByteCount }

    /// The fewest bytes a route matching `segments` can have: a literal's own UTF-8 bytes (raw is
    /// the shortest spelling), 36 for a uuid, one for any other placeholder (a catch-all takes at
    /// least one segment), and one per `/` between segments.
    static func shortestRouteByteCount(_ segments: some Collection<RouteSegment>) -> Int {
        var total = max(0, segments.count - 1)
        for segment in segments {
            switch segment {
            case .literal(let text): total += text.utf8.count
            case .parameter(_, .uuid): total += 36
            case .parameter: total += 1
            }
        }
        return total
    }
}
