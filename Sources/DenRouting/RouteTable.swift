/// The mutable registry of route patterns. Conflicts are refused here, at registration; matching
/// happens on the immutable `CompiledRouter` that `compile()` builds.
///
/// Why two types: registration changes rarely (module load, unload, hot swap) and must check
/// every new pattern; resolution is the hot path and must be lock-free and side-effect free.
/// The host edits a `RouteTable` under its lock (adding a module's routes one by one and, if one
/// is refused, taking back the ones just added with `removeLast`; a hot swap edits a copy), then
/// `compile()`s and publishes the router in one step.
public struct RouteTable<Value: Sendable>: Sendable {
    /// Every route, in registration order (which decides nothing about matching).
    public private(set) var routes: [RegisteredRoute<Value>] = []
    /// Shape (`jogs/<int>`, as UTF-8 bytes, since literals match byte for byte) to index in
    /// `routes`: equal shapes are exactly the conflicting ones.
    private var indexByShape: [UTF8Key: Int] = [:]

    public init() {}

    public var count: Int { routes.count }
    public var isEmpty: Bool { routes.isEmpty }

    /// Room for `count` more routes: growing the shape index rehashes every shape in it, and
    /// growing the list copies it, once per doubling.
    public mutating func reserveCapacity(adding count: Int) {
        routes.reserveCapacity(routes.count + count)
        indexByShape.reserveCapacity(indexByShape.count + count)
    }

    /// Parses and registers `pattern`.
    /// - Throws: `RoutePatternError` if the pattern is invalid, `RouteConflictError` if an
    ///   already registered pattern matches exactly the same routes, `RouteUnreachableError` if
    ///   the pattern, or a catch-all already registered, could then never match. The table is
    ///   unchanged on error.
    public mutating func add(_ pattern: String, owner: String, value: Value) throws {
        try add(RoutePattern(pattern), owner: owner, value: value)
    }

    /// Registers an already parsed pattern.
    /// - Throws: `RouteConflictError` or `RouteUnreachableError`; the table is unchanged on error.
    public mutating func add(_ pattern: RoutePattern, owner: String, value: Value) throws {
        // The shape is hashed once: claimed first, given back on a conflict or an unreachable
        // route (rare). A look-up, then an insert, cost each module's route two hashes at start.
        let shape = UTF8Key(pattern.shape)
        if let existing = indexByShape.updateValue(routes.count, forKey: shape) {
            indexByShape[shape] = existing
            throw conflict(with: existing, pattern: pattern, owner: owner)
        }
        if let unreachable = unreachableRoute(for: pattern, owner: owner) {
            indexByShape[shape] = nil
            throw unreachable
        }
        routes.append(RegisteredRoute(pattern: pattern, owner: owner, value: value))
    }

    /// The conflict that adding `pattern` for `owner` would raise, if any; adds nothing.
    public func conflict(for pattern: RoutePattern, owner: String) -> RouteConflictError? {
        guard let index = indexByShape[UTF8Key(pattern.shape)] else { return nil }
        return conflict(with: index, pattern: pattern, owner: owner)
    }

    private func conflict(with index: Int, pattern: RoutePattern, owner: String) -> RouteConflictError {
        let existing = routes[index]
        return RouteConflictError(
            pattern: pattern.text, owner: owner,
            existingPattern: existing.pattern.text, existingOwner: existing.owner, shape: pattern.shape)
    }

    /// The `RouteUnreachableError` that adding `pattern` for `owner` would raise, if any; adds
    /// nothing. Checks the pattern itself if it is a catch-all, and every registered catch-all it
    /// could help starve (`RouteReachability`).
    public func unreachableRoute(for pattern: RoutePattern, owner: String) -> RouteUnreachableError? {
        let newIndex = routes.count
        let newShape = pattern.shape
        func lookup(_ shape: String) -> Int? { shape == newShape ? newIndex : indexByShape[UTF8Key(shape)] }
        func route(_ index: Int) -> RouteUnreachableError.Route {
            index == newIndex
                ? .init(pattern: pattern.text, owner: owner)
                : .init(pattern: routes[index].pattern.text, owner: routes[index].owner)
        }

        if case .parameter(_, .path) = pattern.segments.last,
           let takers = RouteReachability.takers(ofCatchAll: pattern.segments, lookup: lookup) {
            return RouteUnreachableError(pattern: pattern.text, owner: owner, unreachablePattern: pattern.text,
                                         unreachableOwner: owner, takenBy: takers.map(route))
        }
        for shape in RouteReachability.catchAllShapes(takenFromBy: pattern.segments) {
            // `index != newIndex`: `add` claims the new shape before this check (a catch-all
            // shape here always has another shape, but a claim must never be read as a route).
            guard let index = indexByShape[UTF8Key(shape)], index != newIndex,
                  let takers = RouteReachability.takers(ofCatchAll: routes[index].pattern.segments, lookup: lookup)
            else { continue }
            return RouteUnreachableError(pattern: pattern.text, owner: owner, unreachablePattern: routes[index].pattern.text,
                                         unreachableOwner: routes[index].owner, takenBy: takers.map(route))
        }
        return nil
    }

    /// Removes every route registered by `owner` (for unloading or hot-swapping a module); the
    /// other routes keep their relative registration order. Returns how many were removed.
    /// (Removing never makes another route unreachable: it only takes routes away from others.)
    @discardableResult
    public mutating func removeAll(ownedBy owner: String) -> Int {
        let before = routes.count
        routes.removeAll { $0.owner == owner }
        guard routes.count != before else { return 0 }
        indexByShape = Dictionary(uniqueKeysWithValues: routes.enumerated().map { (UTF8Key($1.pattern.shape), $0) })
        return before - routes.count
    }

    /// Takes back the last `count` routes added (a module whose later route was refused), so a
    /// caller can add in place instead of copying the table to try a change.
    package mutating func removeLast(_ count: Int) {
        for route in routes.suffix(count) { indexByShape[UTF8Key(route.pattern.shape)] = nil }
        routes.removeLast(count)
    }

    /// The routes registered by `owner`, in registration order.
    public func routes(ownedBy owner: String) -> [RegisteredRoute<Value>] {
        routes.filter { $0.owner == owner }
    }

    /// Builds the trie once. The result does not change when the table changes later: compile
    /// again after adding or removing routes.
    public func compile() -> CompiledRouter<Value> {
        CompiledRouter(routes: routes)
    }
}
