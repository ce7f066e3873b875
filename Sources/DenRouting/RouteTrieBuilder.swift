/// The build-time form of the trie: easy to insert into, with dictionaries and nested arrays.
/// `build()` freezes it into the flat `RouteTrie` that matching uses.
struct RouteTrieBuilder {
    private struct Node {
        var literals: [UTF8Key: Int] = [:]
        /// `int`, `double`, `uuid` children; `build()` orders them by `RoutePrecedence`.
        var typed: [(type: RouteParameterType, child: Int)] = []
        var string: Int?
        var catchAllRoute: Int?
        var route: Int?
    }

    private var nodes: [Node] = [Node()]

    /// Room for `routes` routes at once: most patterns start with a literal of their own, so the
    /// root's dictionary otherwise rehashes every key each time it doubles (a start with a
    /// hundred modules builds this once).
    init(expectedRoutes routes: Int = 0) {
        guard routes > 1 else { return }
        nodes.reserveCapacity(routes + 1)
        nodes[0].literals.reserveCapacity(routes)
    }

    /// Adds a route's segments. Callers have already refused conflicts, so an occupied end is
    /// left as it is; insertion order matters nowhere else.
    mutating func insert(_ segments: [RouteSegment], route: Int) {
        var node = 0
        for segment in segments {
            switch segment {
            case .literal(let text):
                // Literals compare as exact UTF-8 bytes, as URL paths do (no Unicode normalization).
                let key = UTF8Key(text)
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
                    nodes[node].typed.append((type, child))
                    node = child
                }
            }
        }
        if nodes[node].route == nil { nodes[node].route = route }
    }

    func build() -> RouteTrie {
        var flatNodes: [RouteTrie.Node] = []
        var typedEdges: [RouteTrie.TypedEdge] = []
        var literalEdges: [RouteLiteralTable.Edge] = []
        flatNodes.reserveCapacity(nodes.count)
        for (index, node) in nodes.enumerated() {
            let typedStart = typedEdges.count
            // Most nodes are leaves (a route's last segment): nothing to sort or copy for them.
            if !node.typed.isEmpty {
                // By type, not by which route created the edge first: see RoutePrecedence.
                typedEdges += node.typed
                    .sorted { RoutePrecedence.typedRank($0.type) < RoutePrecedence.typedRank($1.type) }
                    .map { RouteTrie.TypedEdge(type: $0.type, child: Int32($0.child)) }
            }
            if !node.literals.isEmpty {
                literalEdges += node.literals.map { RouteLiteralTable.Edge(parent: index, text: $0.key.text, child: $0.value) }
            }
            flatNodes.append(RouteTrie.Node(
                typedStart: Int32(typedStart), typedEnd: Int32(typedEdges.count),
                string: Int32(node.string ?? -1), catchAllRoute: Int32(node.catchAllRoute ?? -1),
                route: Int32(node.route ?? -1), hasLiterals: !node.literals.isEmpty))
        }
        return RouteTrie(nodes: flatNodes, typedEdges: typedEdges, literals: RouteLiteralTable(literalEdges))
    }

    private mutating func appendNode() -> Int {
        nodes.append(Node())
        return nodes.count - 1
    }
}
