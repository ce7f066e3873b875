import DenRouting

import Testing

/// Under the precedence rule no placeholder type can starve a sibling (see README, "### Routes"),
/// but a catch-all can be starved by a chain of string placeholders: with `a/<s>` and
/// `a/<s>/<path:r>`, every route `a/<path:p>` could match is taken first. That is refused at
/// registration, whichever pattern comes last, naming the starved route and those that starve it.
@Suite("Routing — A catch-all that could never match is refused at registration")
struct RoutingUnreachableSpec {
    struct Registration: CustomTestStringConvertible, Sendable {
        let owner: String
        let pattern: String
        var testDescription: String { "\(owner): \(pattern)" }
    }

    static let starvingSet = [
        Registration(owner: "files", pattern: "a/<path:p>"),
        Registration(owner: "notes", pattern: "a/<s>"),
        Registration(owner: "notes", pattern: "a/<s>/<path:rest>"),
    ]

    /// Adds all registrations in order; returns the error of the first refused one.
    static func register(_ registrations: [Registration]) -> (RouteTable<String>, Error?) {
        var table = RouteTable<String>()
        for registration in registrations {
            do { try table.add(registration.pattern, owner: registration.owner, value: registration.pattern) } catch {
                return (table, error)
            }
        }
        return (table, nil)
    }

    @Test("refused in every registration order; the last one added is the one refused",
          arguments: RoutingOrderIndependenceSpec.permutations([0, 1, 2]))
    func refusedInEveryOrder(order: [Int]) throws {
        let registrations = order.map { Self.starvingSet[$0] }
        let (table, failure) = Self.register(registrations)
        let error = try #require(failure as? RouteUnreachableError, "\(String(describing: failure))")
        let last = registrations[2]
        #expect(error.pattern == last.pattern)
        #expect(error.owner == last.owner)
        #expect(error.unreachablePattern == "a/<path:p>")
        #expect(error.unreachableOwner == "files")
        #expect(Set(error.takenBy) == [.init(pattern: "a/<s>", owner: "notes"), .init(pattern: "a/<s>/<path:rest>", owner: "notes")])
        #expect(table.count == 2, "the table is unchanged by the refused pattern")
        for phrase in ["\"a/<path:p>\"", "module \"files\"", "\"a/<s>\"", "\"a/<s>/<path:rest>\"", "module \"notes\"", "never"] {
            #expect(error.description.contains(phrase), "\(error.description) should mention \(phrase)")
        }
    }

    @Test("a catch-all that still gets some routes is accepted and serves them",
          arguments: [
              (["a/<s>"], "a/x/y"),
              (["a/<s>/<path:rest>"], "a/x"),
              (["a/<s>", "a/<s>/<t>/<path:rest>"], "a/x/y"),
              (["a/<int:i>", "a/<int:i>/<path:rest>"], "a/x"),
              (["a/<s>", "a/<s>/<int:i>/<path:rest>"], "a/x/y/z"),
              (["<s>", "<s>/<path:rest>"], "a/x"),
          ])
    func partlyCovered(others: [String], route: String) throws {
        let router = try RoutingTestSupport.router(others + ["a/<path:p>"])
        #expect(RoutingTestSupport.matchedPattern(router, route) == "a/<path:p>")
    }

    @Test("a root catch-all can be starved too; the message says it could never match")
    func rootCatchAll() throws {
        var table = RouteTable<Int>()
        try table.add("<s>", owner: "a", value: 1)
        try table.add("<s>/<path:rest>", owner: "a", value: 2)
        let error = try #require(throws: RouteUnreachableError.self) { try table.add("<path:all>", owner: "b", value: 3) }
        #expect(error.unreachablePattern == "<path:all>")
        #expect(error.pattern == "<path:all>")
        #expect(error.description.contains("could never match"), "\(error.description)")
    }

    @Test("the route length limit counts: strings covering every length that fits starve a catch-all")
    func coveredUpToTheLengthLimit() throws {
        // 55 uuids take 2,034 bytes, so at most 7 one-byte segments fit after them.
        let prefix = (0..<55).map { "<uuid:u\($0)>" }.joined(separator: "/")
        let chains = (1...7).map { length in prefix + "/" + (0..<length).map { "<s\($0)>" }.joined(separator: "/") }
        var table = RouteTable<Int>()
        for chain in chains.dropLast() { try table.add(chain, owner: "m", value: 0) }
        try table.add(prefix + "/<path:rest>", owner: "m", value: 1)
        let uuids = Array(repeating: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", count: 55).joined(separator: "/")
        #expect(try table.compile().resolve(uuids + "/a/b/c/d/e/f/g").get().value == 1)

        #expect(throws: RouteUnreachableError.self) { try table.add(chains.last!, owner: "m", value: 0) }
    }
}
