import DenRouting

import Testing

@Suite("Routing — Precedence and backtracking")
struct RoutingPrecedenceSpec {
    let all = ["items/new", "items/<int:id>", "items/<string:slug>", "items/<path:rest>"]

    @Test("per segment: literal > int > double > uuid > string > catch-all, whatever the registration order",
          arguments: [
              ("items/new", "items/new"),
              ("items/42", "items/<int:id>"),
              ("items/hello", "items/<string:slug>"),
              ("items/a/b", "items/<path:rest>"),
          ])
    func precedence(route: String, expected: String) throws {
        for patterns in [all, all.reversed(), [all[2], all[0], all[3], all[1]]] {
            let router = try RoutingTestSupport.router(patterns)
            #expect(RoutingTestSupport.matchedPattern(router, route) == expected, "registered as \(patterns)")
        }
    }

    @Test("uuid beats string, and a literal beats a uuid")
    func uuidPrecedence() throws {
        let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let router = try RoutingTestSupport.router(["u/<s>", "u/<uuid:u>", "u/\(uuid)"])
        #expect(RoutingTestSupport.matchedPattern(router, "u/\(uuid)") == "u/\(uuid)")
        #expect(RoutingTestSupport.matchedPattern(router, "u/\(uuid.lowercased())") == "u/<uuid:u>")
        #expect(RoutingTestSupport.matchedPattern(router, "u/x") == "u/<s>")
    }

    @Test("typed placeholders accepting the same segment: the more specific type first (int > double > uuid)")
    func moreSpecificTypeFirst() throws {
        for patterns in [["n/<int:a>", "n/<double:b>"], ["n/<double:b>", "n/<int:a>"]] {
            let router = try RoutingTestSupport.router(patterns)
            #expect(RoutingTestSupport.matchedPattern(router, "n/42") == "n/<int:a>", "registered as \(patterns)")
            #expect(RoutingTestSupport.matchedPattern(router, "n/-7") == "n/<int:a>", "registered as \(patterns)")
            #expect(RoutingTestSupport.matchedPattern(router, "n/4.2") == "n/<double:b>", "registered as \(patterns)")
        }
    }

    @Test("a module's <double:> registered first does not make another module's <int:> dead")
    func loadOrderDoesNotDecide() throws {
        for doubleFirst in [true, false] {
            var table = RouteTable<String>()
            let modules = [("a", "n/<double:b>"), ("b", "n/<int:a>")]
            for (owner, pattern) in doubleFirst ? modules : modules.reversed() {
                try table.add(pattern, owner: owner, value: pattern)
            }
            let router = table.compile()
            #expect(try router.resolve("n/5").get().owner == "b", "double first: \(doubleFirst)")
            #expect(try router.resolve("n/5.5").get().owner == "a", "double first: \(doubleFirst)")
        }
    }

    @Test("an unrelated earlier route does not change which typed branch wins")
    func unrelatedRouteDoesNotReorder() throws {
        let with = try RoutingTestSupport.router(["n/<int:a>/x", "n/<double:b>", "n/<int:c>"])
        let without = try RoutingTestSupport.router(["n/<double:b>", "n/<int:c>"])
        #expect(RoutingTestSupport.matchedPattern(with, "n/5") == "n/<int:c>")
        #expect(RoutingTestSupport.matchedPattern(without, "n/5") == "n/<int:c>")
        #expect(RoutingTestSupport.matchedPattern(with, "n/5/x") == "n/<int:a>/x")
        #expect(RoutingTestSupport.matchedPattern(with, "n/5.5") == "n/<double:b>")
    }

    @Test("a dead end under the preferred branch backtracks to the next candidate")
    func backtracking() throws {
        let router = try RoutingTestSupport.router(["a/<string:x>/c", "a/b/d"])
        let match = try #require(RoutingTestSupport.match(router, "a/b/c"))
        #expect(match.pattern == "a/<string:x>/c")
        #expect(match.parameters == ["x": "b"])
        #expect(RoutingTestSupport.matchedPattern(router, "a/b/d") == "a/b/d")
    }

    @Test("backtracking walks through typed, string and catch-all candidates in order")
    func deepBacktracking() throws {
        let router = try RoutingTestSupport.router([
            "a/1/x", "a/<int:i>/y", "a/<double:d>/z", "a/<s>/w", "a/<path:rest>",
        ])
        #expect(RoutingTestSupport.matchedPattern(router, "a/1/x") == "a/1/x")
        #expect(RoutingTestSupport.matchedPattern(router, "a/1/y") == "a/<int:i>/y")
        #expect(RoutingTestSupport.matchedPattern(router, "a/1/z") == "a/<double:d>/z")
        #expect(RoutingTestSupport.matchedPattern(router, "a/1/w") == "a/<s>/w")
        #expect(RoutingTestSupport.matchedPattern(router, "a/1/v") == "a/<path:rest>")
        #expect(RoutingTestSupport.match(router, "a/1/v/u")?.parameters == ["rest": "1/v/u"])
    }

    @Test("a route ending early backtracks too: a terminal is needed, not just a prefix")
    func prefixIsNotAMatch() throws {
        let router = try RoutingTestSupport.router(["a/b/c", "a/<s>"])
        #expect(RoutingTestSupport.matchedPattern(router, "a/b") == "a/<s>")
        #expect(RoutingTestSupport.error(router, "a") == .notFound("a"))
    }

    @Test("a catch-all needs at least one segment")
    func catchAllNeedsOneSegment() throws {
        let router = try RoutingTestSupport.router(["files/<path:rest>"])
        #expect(RoutingTestSupport.error(router, "files") == .notFound("files"))
        #expect(RoutingTestSupport.error(router, "files/") == .notFound("files/"))
        #expect(RoutingTestSupport.match(router, "files/a")?.parameters == ["rest": "a"])
        #expect(RoutingTestSupport.match(router, "files/a/b.txt")?.parameters == ["rest": "a/b.txt"])
    }

    @Test("a root catch-all serves everything nothing else does")
    func rootCatchAll() throws {
        let router = try RoutingTestSupport.router(["about", "<path:anything>"])
        #expect(RoutingTestSupport.matchedPattern(router, "about") == "about")
        #expect(RoutingTestSupport.matchedPattern(router, "about/more") == "<path:anything>")
        #expect(RoutingTestSupport.matchedPattern(router, "x") == "<path:anything>")
    }

    @Test("literals are case-sensitive")
    func caseSensitive() throws {
        let router = try RoutingTestSupport.router(["About"])
        #expect(RoutingTestSupport.matchedPattern(router, "About") == "About")
        #expect(RoutingTestSupport.error(router, "about") == .notFound("about"))
    }

    @Test("parameters of the chosen pattern use that pattern's names")
    func namesFromChosenPattern() throws {
        let router = try RoutingTestSupport.router(["a/<first>/x", "a/<second>/y"])
        #expect(RoutingTestSupport.match(router, "a/v/x")?.parameters == ["first": "v"])
        #expect(RoutingTestSupport.match(router, "a/v/y")?.parameters == ["second": "v"])
    }
}
