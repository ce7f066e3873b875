/// The compiled form of a route table: a trie over pattern segments, stored flat (nodes in one
/// array, children by index) so matching walks integers and never allocates.
///
/// Matching is a depth-first search that tries, at each segment, in this fixed order:
/// 1. the literal child equal to the segment (dictionary lookup);
/// 2. typed children (`int`, `double`, `uuid`) whose type accepts the segment, in the order in
///    which the first route using each edge was registered;
/// 3. the `string` child;
/// 4. a catch-all (`path`) route, which takes the segment and everything after it.
/// If a branch dead-ends deeper down, the search backtracks and tries the next candidate. Each
/// node is reached only through its parent at a fixed depth, so a match visits every node at
/// most once: backtracking costs at most the size of the trie, never exponential time.
struct RouteTrie: Sendable {
    struct TypedEdge: Sendable {
        let type: RouteParameterType
        let child: Int
    }

    struct Node: Sendable {
        var literals: [Substring: Int] = [:]
        var typed: [TypedEdge] = []
        var string: Int?
        /// A route whose pattern ends with `<path:...>` at this node.
        var catchAllRoute: Int?
        /// A route whose pattern ends exactly at this node.
        var route: Int?
    }

    private(set) var nodes: [Node] = [Node()]

    /// Adds a route's segments. Callers insert in registration order (that is what orders typed
    /// edges) and have already refused conflicts, so an occupied end node is left as it is.
    mutating func insert(_ segments: [RouteSegment], route: Int) {
        var node = 0
        for segment in segments {
            switch segment {
            case .literal(let text):
                let key = Substring(text)
                if let child = nodes[node].literals[key] {
                    node = child
                } else {
                    let child = appendNode()
                    nodes[node].literals[key] = child
                    node = child
                }
            case .parameter(_, .path):
                if nodes[node].catchAllRoute == nil { nodes[node].catchAllRoute = route }
                return
            case .parameter(_, .string):
                if let child = nodes[node].string {
                    node = child
                } else {
                    let child = appendNode()
                    nodes[node].string = child
                    node = child
                }
            case .parameter(_, let type):
                if let edge = nodes[node].typed.first(where: { $0.type == type }) {
                    node = edge.child
                } else {
                    let child = appendNode()
                    nodes[node].typed.append(TypedEdge(type: type, child: child))
                    node = child
                }
            }
        }
        if nodes[node].route == nil { nodes[node].route = route }
    }

    /// The index of the route matching `path`, or nil.
    func match(_ path: [Substring]) -> Int? {
        nodes.withUnsafeBufferPointer { nodes in
            path.withUnsafeBufferPointer { path in
                Self.match(nodes, node: 0, path: path, depth: 0)
            }
        }
    }

    private static func match(
        _ nodes: UnsafeBufferPointer<Node>, node: Int, path: UnsafeBufferPointer<Substring>, depth: Int
    ) -> Int? {
        guard depth < path.count else { return nodes[node].route }
        let segment = path[depth]
        if !nodes[node].literals.isEmpty, let child = nodes[node].literals[segment],
           let found = match(nodes, node: child, path: path, depth: depth + 1) {
            return found
        }
        for edge in nodes[node].typed where RouteSegmentMatcher.matches(edge.type, segment) {
            if let found = match(nodes, node: edge.child, path: path, depth: depth + 1) { return found }
        }
        if let child = nodes[node].string, let found = match(nodes, node: child, path: path, depth: depth + 1) {
            return found
        }
        return nodes[node].catchAllRoute
    }

    private mutating func appendNode() -> Int {
        nodes.append(Node())
        return nodes.count - 1
    }
}
