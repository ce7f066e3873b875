/// Finds the one kind of registered pattern that could never match under `RoutePrecedence`: a
/// catch-all whose every route is taken first by string placeholders, e.g. `a/<path:p>` under
/// `a/<s>` and `a/<s>/<path:r>`.
///
/// Why only `string` chains count: a route can give every segment after the catch-all's prefix a
/// value no literal, `int`, `double` or `uuid` accepts (and the prefix values no preferred sibling
/// accepts, see `RoutePrecedence`). Such a route reaches the catch-all unless patterns of the form
/// prefix + `<string>`ⁿ (ending there, or in a catch-all) take it, for every segment count the
/// route length limit allows. Works on shapes (`a/<string>`), so it needs no trie.
enum RouteReachability {
    /// The routes (as `lookup` indexes them by shape) that together take every route the
    /// catch-all pattern `segments` could match, or nil if some route still reaches it.
    static func takers(ofCatchAll segments: [RouteSegment], lookup: (String) -> Int?) -> [Int]? {
        // Each segment after the prefix costs at least two bytes (one, plus its '/').
        let spare = RouteLengthLimit.maximumByteCount - RouteLengthLimit.shortestRouteByteCount(segments)
        guard spare >= 0 else { return nil }
        let mostSegments = spare / 2 + 1
        var chain = slashJoined(segments.dropLast().map(\.shape))
        var takers: [Int] = []
        for count in 1...mostSegments {
            // prefix/<string>^(count-1)/<path> takes every route with `count` or more segments.
            if count >= 2, let index = lookup(chain + "/<path>") { return takers + [index] }
            chain += chain.isEmpty ? "<string>" : "/<string>"
            guard let index = lookup(chain) else { return nil }
            takers.append(index)
        }
        return takers
    }

    /// Shapes of the catch-alls that `segments` could help starve: for each way to read it as a
    /// prefix, one or more `<string>`s and an optional final `<path>`, the shape `prefix/<path>`.
    static func catchAllShapes(takenFromBy segments: [RouteSegment]) -> [String] {
        var end = segments.count
        if case .parameter(_, .path) = segments.last { end -= 1 }
        var shapes: [String] = []
        var start = end
        while start > 0, case .parameter(_, .string) = segments[start - 1] {
            start -= 1
            shapes.append(slashJoined(segments[..<start].map(\.shape) + ["<path>"]))
        }
        return shapes
    }

    /// `parts` joined by `/`. Not the standard library's generic `joined`, which a fresh process
    /// first has to instantiate (docs/START_PATH.md, "What a fresh process pays for").
    private static func slashJoined(_ parts: [String]) -> String {
        var joined = ""
        for (index, part) in parts.enumerated() {
            if index > 0 { joined += "/" }
            joined += part
        }
        return joined
    }
}
