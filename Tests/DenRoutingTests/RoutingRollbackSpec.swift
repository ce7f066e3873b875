@testable import DenRouting
import DenRouting
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

    @Test("a pattern refused as a conflict leaves the shape with the route that had it")
    func conflictKeepsTheFirst() throws {
        var table = RouteTable<Int>()
        try table.add("about", owner: "about", value: 1)
        try table.add("jogs/<int:id>", owner: "jogs", value: 2)
        let refused = #expect(throws: RouteConflictError.self) { try table.add("jogs/<int:n>", owner: "other", value: 3) }
        #expect(refused?.existingOwner == "jogs")
        #expect(table.count == 2)
        #expect(try table.compile().resolve("jogs/7").get().value == 2)
        let again = try #require(table.conflict(for: RoutePattern("jogs/<int:x>"), owner: "third"))
        #expect(again.existingPattern == "jogs/<int:id>" && again.existingOwner == "jogs", "the shape still names the first route")
    }

    @Test("a pattern refused as unreachable leaves its shape free, and the table as it was")
    func unreachableFreesItsShape() throws {
        var table = RouteTable<Int>()
        try table.add("a/<path:p>", owner: "files", value: 1)
        try table.add("a/<s>", owner: "notes", value: 2)
        #expect(throws: RouteUnreachableError.self) { try table.add("a/<s>/<path:rest>", owner: "notes", value: 3) }
        #expect(table.count == 2)
        #expect(table.conflict(for: try RoutePattern("a/<t>/<path:more>"), owner: "late") == nil, "the refused shape is not held")
        #expect(try table.compile().resolve("a/x/y").get().value == 1)
        // Once the route that starved it is gone, the same shape is taken.
        table.removeLast(1)
        try table.add("a/<s>/<path:rest>", owner: "notes", value: 4)
        #expect(try table.compile().resolve("a/x/y").get().value == 4)
    }
}
