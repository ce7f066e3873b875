import DenRouting

import Testing

/// The precedence rule makes the answer a function of the route and the *set* of registered
/// patterns: never of registration (load) order, never of a route that does not match.
@Suite("Routing — Answers depend on neither registration order nor unrelated routes")
struct RoutingOrderIndependenceSpec {
    static let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"

    /// Segment values that fall into different placeholder types (and into the literals below).
    static let probeSegments = ["a", "5", "-5", "5.5", uuid, "zz"]

    /// Every route of one to three probe segments.
    static let probes: [String] = {
        var routes: [[String]] = probeSegments.map { [$0] }
        var all = routes
        for _ in 1..<3 {
            routes = routes.flatMap { route in probeSegments.map { route + [$0] } }
            all += routes
        }
        return all.map { $0.joined(separator: "/") }
    }()

    /// What each probe resolves to (a pattern, or nil).
    static func answers(_ router: CompiledRouter<String>) -> [String?] {
        probes.map { RoutingTestSupport.matchedPattern(router, $0) }
    }

    /// All orderings of `items` (Heap's algorithm).
    static func permutations<T>(_ items: [T]) -> [[T]] {
        var items = items
        var result: [[T]] = []
        func generate(_ count: Int) {
            guard count > 1 else { return result.append(items) }
            for index in 0..<count {
                generate(count - 1)
                items.swapAt(count.isMultiple(of: 2) ? index : 0, count - 1)
            }
        }
        generate(items.count)
        return result
    }

    @Test("every registration order of one set gives the same answer for every probe")
    func everyPermutationAgrees() throws {
        let patterns = ["n/<int:a>/x", "n/<double:b>", "n/<int:c>", "n/<uuid:u>", "n/<s>", "n/<path:rest>", "n/5"]
        let orders = Self.permutations(patterns)
        #expect(orders.count == 5040)
        let probes = ["n/5", "n/6", "n/5/x", "n/6/x", "n/5.5", "n/5.5/x", "n/\(Self.uuid)", "n/zz", "n/zz/x", "n/a/b/c"]
        let reference = try RoutingTestSupport.router(patterns)
        let expected = probes.map { RoutingTestSupport.matchedPattern(reference, $0) }
        for order in orders {
            let router = try RoutingTestSupport.router(order)
            let got = probes.map { RoutingTestSupport.matchedPattern(router, $0) }
            if let index = (0..<got.count).first(where: { got[$0] != expected[$0] }) {
                Issue.record("\(probes[index]) gave \(got[index] ?? "nothing"), not \(expected[index] ?? "nothing"), registered as \(order)")
                return
            }
        }
    }

    /// A random pattern over a small alphabet, so patterns overlap a lot. Names are derived from
    /// the position, so two patterns of one shape have the same text.
    static func randomPattern(using generator: inout RoutingTestSupport.SeededGenerator) -> String {
        let kinds = ["a", "5", "<int:p>", "<double:p>", "<uuid:p>", "<string:p>", "<path:p>"]
        let length = Int.random(in: 1...3, using: &generator)
        return (0..<length).map { index in
            let choices = index == length - 1 ? kinds : Array(kinds.dropLast())
            return choices.randomElement(using: &generator)!.replacingOccurrences(of: ":p>", with: ":p\(index)>")
        }.joined(separator: "/")
    }

    /// A set of patterns the table accepts (refused ones are left out), in generation order.
    static func randomTable(size: Int, using generator: inout RoutingTestSupport.SeededGenerator) -> [String] {
        var table = RouteTable<String>()
        var accepted: [String] = []
        for _ in 0..<size {
            let pattern = randomPattern(using: &generator)
            if (try? table.add(pattern, owner: "m", value: pattern)) != nil { accepted.append(pattern) }
        }
        return accepted
    }

    @Test("random tables: shuffling the registration order never changes an answer")
    func randomTablesAreOrderIndependent() throws {
        var generator = RoutingTestSupport.SeededGenerator(seed: 0x0D3E)
        for _ in 0..<60 {
            let patterns = Self.randomTable(size: 12, using: &generator)
            let expected = Self.answers(try RoutingTestSupport.router(patterns))
            for _ in 0..<8 {
                let shuffled = patterns.shuffled(using: &generator)
                // Every order is accepted too: refusals do not depend on order either.
                let got = Self.answers(try RoutingTestSupport.router(shuffled))
                if let index = (0..<got.count).first(where: { got[$0] != expected[$0] }) {
                    Issue.record("\(Self.probes[index]) gave \(got[index] ?? "nothing"), not \(expected[index] ?? "nothing"), for \(patterns) registered as \(shuffled)")
                    return
                }
            }
        }
    }

    @Test("adding a route changes no answer except for routes the new pattern itself serves")
    func unrelatedRouteChangesNothing() throws {
        var generator = RoutingTestSupport.SeededGenerator(seed: 0xADD)
        var checked = 0
        for _ in 0..<60 {
            let patterns = Self.randomTable(size: 10, using: &generator)
            let before = Self.answers(try RoutingTestSupport.router(patterns))
            for _ in 0..<6 {
                let extra = Self.randomPattern(using: &generator)
                // Registered first, where it could disturb the most (refused ones are skipped).
                guard let router = try? RoutingTestSupport.router([extra] + patterns) else { continue }
                let after = Self.answers(router)
                let alone = try RoutingTestSupport.router([extra])
                for (index, probe) in Self.probes.enumerated() {
                    checked += 1
                    let related = RoutingTestSupport.matchedPattern(alone, probe) != nil
                    if after[index] == before[index] || (related && after[index] == extra) { continue }
                    Issue.record("adding \(extra) to \(patterns) moved \(probe) from \(before[index] ?? "nothing") to \(after[index] ?? "nothing")")
                    break
                }
            }
        }
        #expect(checked > 10_000)
    }
}
