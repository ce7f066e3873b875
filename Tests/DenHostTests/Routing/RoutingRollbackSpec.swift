@testable import DenHost
import Testing

@Suite("Routing — Taking back the routes of a refused module")
struct RoutingRollbackSpec {
    @Test("removeLast takes back exactly the routes just added; their shapes are free again")
    func removeLastFreesShapes() throws {
        var table = RouteTable<Int>()
        try table.add("about", owner: "about", value: 1)
        try table.add("jogs/<int:id>", owner: "jogs", value: 2)
        try table.add("jogs", owner: "jogs", value: 3)
        table.removeLast(2)
        #expect(table.routes.map(\.pattern.text) == ["about"])
        try table.add("jogs/<int:n>", owner: "other", value: 4)
        try table.add("jogs", owner: "other", value: 5)
        #expect(try table.compile().resolve("jogs/7").get().value == 4)
        #expect(throws: RouteConflictError.self) { try table.add("about", owner: "late", value: 6) }
    }

    @Test("removeLast(0) changes nothing")
    func removeNothing() throws {
        var table = RouteTable<Int>()
        try table.add("about", owner: "about", value: 1)
        table.removeLast(0)
        #expect(table.count == 1)
        #expect(throws: RouteConflictError.self) { try table.add("about", owner: "late", value: 2) }
    }
}
