import DenRouting

import Testing

@Suite("Routing — Matching details: bytes, catch-alls, sharing")
struct RoutingMatchingDetailsSpec {
    @Test("literals match byte for byte after decoding: no Unicode normalization")
    func noNormalization() throws {
        let composed = "caf\u{E9}"  // é as one scalar (NFC)
        let decomposed = "cafe\u{301}"  // e + combining accent (NFD)
        var table = RouteTable<String>()
        try table.add(composed, owner: "a", value: "nfc")
        try table.add(decomposed, owner: "b", value: "nfd")  // not a conflict: different bytes
        let router = table.compile()
        #expect(try router.resolve(composed).get().value == "nfc")
        #expect(try router.resolve("caf%C3%A9").get().value == "nfc")
        #expect(try router.resolve(decomposed).get().value == "nfd")
    }

    @Test("an encoded slash stays inside its segment, and a catch-all rejoins with '/'")
    func encodedSlash() throws {
        let router = try RoutingTestSupport.router(["a/<s>", "files/<path:rest>"])
        #expect(RoutingTestSupport.match(router, "a/x%2Fy")?.parameters == ["s": "x/y"])
        #expect(RoutingTestSupport.error(router, "a/x/y") == .notFound("a/x/y"))
        #expect(RoutingTestSupport.match(router, "files/x%2Fy/z")?.parameters == ["rest": "x/y/z"])
    }

    @Test("resolve is pure: the same route always gives the same answer")
    func pure() throws {
        let router = try RoutingTestSupport.router(["jogs/<int:id>"])
        let first = RoutingTestSupport.match(router, "jogs/1?x=2")
        let second = RoutingTestSupport.match(router, "jogs/1?x=2")
        #expect(first?.parameters == second?.parameters)
        #expect(first?.query == second?.query)
    }

    @Test("a compiled router can be shared by concurrent tasks")
    func concurrentResolve() async throws {
        let router = try RoutingTestSupport.router((0..<100).map { "m\($0)/<int:id>" } + ["<path:rest>"])
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var bad = 0
                    for i in 0..<2_000 {
                        let module = (task * 31 + i) % 100
                        let match = try? router.resolve("m\(module)/\(i)").get()
                        if match?.pattern != "m\(module)/<int:id>" || match?.int("id") != i { bad += 1 }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test("a table is a value: a failed batch on a copy leaves the original intact")
    func atomicBatch() throws {
        var table = RouteTable<Int>()
        try table.add("about", owner: "about", value: 1)
        var candidate = table
        try candidate.add("jogs", owner: "jogs", value: 2)
        #expect(throws: RouteConflictError.self) { try candidate.add("about", owner: "jogs", value: 3) }
        #expect(table.count == 1)
        #expect(candidate.count == 2)
    }
}
