import DenRouting

import Testing

@Suite("Routing — Conflicts at registration, and removal by owner")
struct RoutingConflictSpec {
    @Test("a pattern's shape keeps its literals and placeholder types and drops the names",
          arguments: [
              ("jogs/<int:id>", "jogs/<int>"),
              ("/about/", "about"),
              ("a/<s>/b", "a/<string>/b"),
              ("c/<double:x>/<uuid:u>/<path:rest>", "c/<double>/<uuid>/<path>"),
              ("ünï/<int:n>", "ünï/<int>"),
          ])
    func shape(pattern: String, shape: String) throws {
        #expect(try RoutePattern(pattern).shape == shape)
    }

    @Test("patterns of the same shape conflict, whatever their names",
          arguments: [
              ("jogs/<int:id>", "jogs/<int:n>"),
              ("about", "/about/"),
              ("a/<s>", "a/<string:t>"),
              ("f/<path:a>", "f/<path:b>"),
              ("c/<double:x>/<uuid:u>", "c/<double:y>/<uuid:v>"),
          ])
    func sameShapeConflicts(first: String, second: String) throws {
        var table = RouteTable<Int>()
        try table.add(first, owner: "jogs", value: 1)
        #expect(throws: RouteConflictError.self) { try table.add(second, owner: "other", value: 2) }
        #expect(table.count == 1)
    }

    @Test("the error names both patterns and both owners, and says what to do")
    func conflictMessage() throws {
        var table = RouteTable<Int>()
        try table.add("jogs/<int:id>", owner: "jogs", value: 1)
        let error = try #require(throws: RouteConflictError.self) {
            try table.add("jogs/<int:n>", owner: "jogs-pro", value: 2)
        }
        #expect(error.pattern == "jogs/<int:n>")
        #expect(error.owner == "jogs-pro")
        #expect(error.existingPattern == "jogs/<int:id>")
        #expect(error.existingOwner == "jogs")
        #expect(error.shape == "jogs/<int>")
        for phrase in ["\"jogs/<int:n>\"", "\"jogs-pro\"", "\"jogs/<int:id>\"", "module \"jogs\"",
                       "same routes", "Change one of the patterns", "unload module \"jogs\""] {
            #expect(error.description.contains(phrase), "\(error.description) should mention \(phrase)")
        }
    }

    @Test("a module conflicting with itself is told so")
    func selfConflict() throws {
        var table = RouteTable<Int>()
        try table.add("about", owner: "about", value: 1)
        let error = try #require(throws: RouteConflictError.self) { try table.add("about", owner: "about", value: 2) }
        #expect(error.description.contains("same module"))
    }

    @Test("patterns that overlap but are not identical do not conflict",
          arguments: [
              ("jogs/<int:id>", "jogs/<double:x>"),
              ("jogs/<int:id>", "jogs/<string:s>"),
              ("jogs/<int:id>", "jogs/new"),
              ("jogs/<s>", "jogs/<path:rest>"),
              ("jogs", "jogs/<int:id>"),
              ("Jogs", "jogs"),
              ("a/<s>/c", "a/b/<s>"),
          ])
    func overlapsAreAllowed(first: String, second: String) throws {
        var table = RouteTable<Int>()
        try table.add(first, owner: "a", value: 1)
        try table.add(second, owner: "b", value: 2)
        #expect(table.count == 2)
    }

    @Test("conflict(for:owner:) checks without adding")
    func dryRun() throws {
        var table = RouteTable<Int>()
        try table.add("about", owner: "about", value: 1)
        #expect(table.conflict(for: try RoutePattern("about"), owner: "x")?.existingOwner == "about")
        #expect(table.conflict(for: try RoutePattern("help"), owner: "x") == nil)
        #expect(table.count == 1)
    }

    @Test("removing an owner's routes unregisters them and frees their shapes")
    func removeByOwner() throws {
        var table = RouteTable<String>()
        try table.add("jogs", owner: "jogs", value: "list")
        try table.add("about", owner: "about", value: "about")
        try table.add("jogs/<int:id>", owner: "jogs", value: "detail")
        try table.add("help", owner: "about", value: "help")

        #expect(table.removeAll(ownedBy: "jogs") == 2)
        #expect(table.removeAll(ownedBy: "nobody") == 0)
        #expect(table.routes.map(\.pattern.text) == ["about", "help"])
        #expect(table.routes(ownedBy: "about").count == 2)

        let router = table.compile()
        #expect(RoutingTestSupport.error(router, "jogs/42") == .notFound("jogs/42"))
        #expect(try router.resolve("about").get().owner == "about")

        // Hot swap: a new version of the module can register the same shapes again.
        try table.add("jogs/<int:jog>", owner: "jogs-v2", value: "detail v2")
        let swapped = table.compile()
        let match = try swapped.resolve("jogs/42").get()
        #expect(match.owner == "jogs-v2")
        #expect(match.parameters == ["jog": "42"])
    }

    @Test("a compiled router is a snapshot: later table changes do not affect it")
    func compiledIsImmutable() throws {
        var table = RouteTable<Int>()
        try table.add("about", owner: "about", value: 1)
        let before = table.compile()
        table.removeAll(ownedBy: "about")
        try table.add("help", owner: "help", value: 2)
        #expect(try before.resolve("about").get().value == 1)
        #expect(RoutingTestSupport.error(before, "help") == .notFound("help"))
        #expect(before.routes.count == 1)
    }

    @Test("removing a module does not change which typed branch wins")
    func removalKeepsPrecedence() throws {
        var table = RouteTable<String>()
        try table.add("n/<int:z>/x", owner: "gone", value: "x")
        try table.add("n/<double:b>", owner: "keep", value: "double")
        try table.add("n/<int:a>", owner: "keep", value: "int")
        #expect(try table.compile().resolve("n/42").get().value == "int")
        table.removeAll(ownedBy: "gone")
        #expect(try table.compile().resolve("n/42").get().value == "int")
        #expect(try table.compile().resolve("n/4.2").get().value == "double")
    }
}
