import DenRouting

import Testing

@Suite("Routing — Repeated query keys reach the module")
struct RoutingRepeatedQuerySpec {
    let router: CompiledRouter<String>

    init() throws {
        router = try RoutingTestSupport.router(["jogs", "jogs/<int:id>"])
    }

    @Test("every value of a repeated key is kept, in order; query[name] is the last one")
    func allValuesInOrder() throws {
        let match = try #require(RoutingTestSupport.match(router, "jogs?id=3&sort=date&id=1&id=2"))
        #expect(match.queryValues == ["id": ["3", "1", "2"], "sort": ["date"]])
        #expect(match.queryValues("id") == ["3", "1", "2"])
        #expect(match.query == ["id": "2", "sort": "date"])
        #expect(match["id"] == "2")
    }

    @Test("a key that is absent has no values; a key without '=' has one empty value")
    func absentAndBare() throws {
        let match = try #require(RoutingTestSupport.match(router, "jogs?flag&flag"))
        #expect(match.queryValues("missing") == [])
        #expect(match.queryValues("flag") == ["", ""])
        #expect(RoutingTestSupport.match(router, "jogs")?.queryValues == [:])
    }

    @Test("a path parameter does not appear among the query values of the same name")
    func pathStaysSeparate() throws {
        let match = try #require(RoutingTestSupport.match(router, "jogs/42?id=7&id=8"))
        #expect(match["id"] == "42")
        #expect(match.queryValues("id") == ["7", "8"])
    }

    @Test("a match built from single values has one value per key")
    func builtFromSingleValues() {
        let match = RouteMatch(value: 1, owner: "m", pattern: "a", route: "a?x=1", parameters: [:], query: ["x": "1"])
        #expect(match.queryValues == ["x": ["1"]])
    }
}
