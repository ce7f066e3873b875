/// The compiled trie: plain-data nodes in one array, children by index, literal edges in a
/// `RouteLiteralTable`. Matching walks integers and byte ranges; it never allocates.
///
/// Matching is a depth-first search that tries, at each segment, in this fixed order:
/// 1. the literal child equal to the segment (exact bytes after percent-decoding);
/// 2. typed children whose type accepts the segment: `int`, then `double`, then `uuid`
///    (`RoutePrecedence`; never registration order);
/// 3. the `string` child;
/// 4. a catch-all (`path`) route, which takes the segment and everything after it.
/// If a branch dead-ends deeper down, the search backtracks and tries the next candidate. Each
/// node is reached only through its parent at a fixed depth, so one match visits every node at
/// most once: backtracking costs at most the size of the trie, never exponential time.
struct RouteTrie: Sendable {
    struct Node: Sendable {
        /// Range of this node's edges in `typedEdges`.
        var typedStart: Int32
        var typedEnd: Int32
        /// Child along a `string` edge, or -1.
        var string: Int32
        /// Route whose pattern ends with `<path:...>` here, or -1.
        var catchAllRoute: Int32
        /// Route whose pattern ends exactly here, or -1.
        var route: Int32
        var hasLiterals: Bool
    }

    struct TypedEdge: Sendable {
        var type: RouteParameterType
        var child: Int32
    }

    let nodes: [Node]
    let typedEdges: [TypedEdge]
    let literals: RouteLiteralTable

    /// The index of the route matching the segments of `path` (decoded bytes), or nil.
    func match(_ path: UnsafeBufferPointer<UInt8>, _ segments: UnsafeBufferPointer<RouteSegmentRange>) -> Int? {
        nodes.withUnsafeBufferPointer { nodes in
            typedEdges.withUnsafeBufferPointer { typedEdges in
                literals.withView { literals in
                    let walk = Walk(nodes: nodes, typedEdges: typedEdges, literals: literals, path: path, segments: segments)
                    let found = walk.match(node: 0, depth: 0)
                    return found >= 0 ? found : nil
                }
            }
        }
    }

    /// Everything one match reads, borrowed as pointers so the recursion does no ARC.
    private struct Walk {
        let nodes: UnsafeBufferPointer<Node>
        let typedEdges: UnsafeBufferPointer<TypedEdge>
        let literals: RouteLiteralTable.View
        let path: UnsafeBufferPointer<UInt8>
        let segments: UnsafeBufferPointer<RouteSegmentRange>

        /// The matching route index, or -1.
        func match(node index: Int, depth: Int) -> Int {
            let node = nodes[index]
            guard depth < segments.count else { return Int(node.route) }
            let range = segments[depth]
            let segment = UnsafeBufferPointer(rebasing: path[range.start..<range.end])

            if node.hasLiterals {
                let child = literals.child(of: index, segment)
                if child >= 0 {
                    let found = match(node: child, depth: depth + 1)
                    if found >= 0 { return found }
                }
            }
            var edge = Int(node.typedStart)
            while edge < Int(node.typedEnd) {
                if RouteSegmentMatcher.matches(typedEdges[edge].type, segment) {
                    let found = match(node: Int(typedEdges[edge].child), depth: depth + 1)
                    if found >= 0 { return found }
                }
                edge += 1
            }
            if node.string >= 0 {
                let found = match(node: Int(node.string), depth: depth + 1)
                if found >= 0 { return found }
            }
            return Int(node.catchAllRoute)
        }
    }
}
