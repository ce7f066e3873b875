import DenRouting


/// Shared helpers for the routing specs. Namespaced so they cannot clash with other test files.
enum RoutingTestSupport {
    /// A router whose payload is the pattern text; owners default to "test".
    static func router(_ patterns: [String], owner: String = "test") throws -> CompiledRouter<String> {
        var table = RouteTable<String>()
        for pattern in patterns { try table.add(pattern, owner: owner, value: pattern) }
        return table.compile()
    }

    /// The pattern that serves `route`, or nil.
    static func matchedPattern<Value>(_ router: CompiledRouter<Value>, _ route: String) -> String? {
        try? router.resolve(route).get().pattern
    }

    static func match<Value>(_ router: CompiledRouter<Value>, _ route: String) -> RouteMatch<Value>? {
        try? router.resolve(route).get()
    }

    static func error<Value>(_ router: CompiledRouter<Value>, _ route: String) -> RouteResolutionError? {
        if case .failure(let error) = router.resolve(route) { return error }
        return nil
    }

    static func patternError(_ text: String) -> RoutePatternError? {
        do {
            _ = try RoutePattern(text)
            return nil
        } catch {
            return error
        }
    }

    /// SplitMix64: a small seeded generator so randomized specs are reproducible.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
