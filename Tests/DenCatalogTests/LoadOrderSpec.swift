@testable import DenCatalog
import Testing

@Suite("The load order at start: dependencies first, and unmet requirements keep a module (and its dependents) unloaded")
struct LoadOrderSpec {
    private func order(_ releases: [ModuleRelease], den: String = "1.4.0") throws -> LoadOrder {
        LoadOrder(installed: installedSet(releases), denVersion: try version(den))
    }

    @Test("dependencies load first; otherwise by id")
    func dependenciesFirst() throws {
        let order = try order([
            release("zeta", "1.0.0"), release("main", "1.4.0"), release("about", "1.0.0", ["stats": "^1"]),
            release("stats", "1.0.0", ["main": "^1.2", "den": ">=1.1 <2"]), release("jogs", "1.0.0", ["main": "*"]),
        ])
        #expect(order.order == ["main", "jogs", "stats", "about", "zeta"])
        #expect(order.notLoaded.isEmpty)
    }

    @Test("each unmet requirement is named: wrong version, missing, den, cycle, itself",
          arguments: [
              ([("stats", "1.0.0", ["main": "^2"]), ("main", "1.4.0", [:])], "stats", "requires main ^2, but main 1.4.0 is installed"),
              ([("stats", "1.0.0", ["main": "^1"])], "stats", "requires main ^1, but main is not installed"),
              ([("stats", "1.0.0", ["den": ">=2"])], "stats", "requires den >=2, and this den is 1.4.0"),
              ([("a", "1.0.0", ["b": "^1"]), ("b", "1.0.0", ["a": "^1"])], "a", "is in a dependency cycle: a -> b -> a"),
              ([("a", "1.0.0", ["b": "^1"]), ("b", "1.0.0", ["a": "^1"])], "b", "is in a dependency cycle: b -> a -> b"),
              ([("a", "1.0.0", ["a": "^1"])], "a", "requires itself, a dependency cycle: a -> a"),
              ([("stats", "1.0.0", ["main": "^1.0"]), ("main", "1.5.0-beta.1", [:])], "stats", "requires main ^1.0, but main 1.5.0-beta.1 is installed"),
              ([("den", "1.0.0", [:])], "den", "is named 'den', the name requirements use for den itself"),
          ] as [([(String, String, [String: String])], String, String)])
    func unmet(rows: [(String, String, [String: String])], id: String, reason: String) throws {
        let order = try order(rows.map { try release($0.0, $0.1, $0.2) })
        #expect(order.notLoaded[id] == reason)
        #expect(!order.order.contains(id))
    }

    @Test("what requires a module that does not load does not load either, however far up; the rest loads")
    func propagates() throws {
        let order = try order([
            release("main", "1.4.0"), release("stats", "1.0.0", ["main": "^2"]), release("report", "1.0.0", ["stats": "^1"]),
            release("top", "1.0.0", ["report": "*", "main": "^1"]), release("other", "1.0.0", ["main": "^1"]),
        ])
        #expect(order.order == ["main", "other"])
        #expect(order.notLoaded == [
            "stats": "requires main ^2, but main 1.4.0 is installed",
            "report": "requires stats ^1, but stats is not loaded",
            "top": "requires report *, but report is not loaded",
        ])
    }

    @Test("a module present but not to be loaded (left out by --plugins) is named with why, not as missing")
    func unavailable() throws {
        let order = LoadOrder(installed: installedSet([try release("stats", "1.0.0", ["main": "^1"])]), denVersion: try version("1.4.0"),
                              unavailable: ["main": "is not selected by --plugins"])
        #expect(order.notLoaded["stats"] == "requires main ^1, but main is not selected by --plugins")
        #expect(order.order.isEmpty)
    }

    @Test("several unmet requirements are all named, in id order")
    func several() throws {
        let order = try order([release("x", "1.0.0", ["den": "^2", "b": "^1", "a": "^1"])])
        #expect(order.notLoaded["x"] == "requires a ^1, but a is not installed; requires b ^1, but b is not installed; requires den ^2, and this den is 1.4.0")
    }

    @Test("a module outside a cycle that requires one is not loaded, and the cycle is the shortest through each member")
    func cycleNeighbours() throws {
        let order = try order([
            release("a", "1.0.0", ["b": "*"]), release("b", "1.0.0", ["c": "*", "a": "*"]), release("c", "1.0.0", ["a": "*"]),
            release("user", "1.0.0", ["c": "*"]), release("free", "1.0.0"),
        ])
        #expect(order.order == ["free"])
        #expect(order.notLoaded["a"] == "is in a dependency cycle: a -> b -> a")
        #expect(order.notLoaded["c"] == "is in a dependency cycle: c -> a -> b -> c")
        #expect(order.notLoaded["user"] == "requires c *, but c is not loaded")
    }

    @Test("a ring of 2,000 modules is refused with a shortened cycle, and a module beside it still loads")
    func longRing() throws {
        let count = 2000
        var releases = try (0..<count).map { i in try release("m\(10000 + i)", "1.0.0", ["m\(10000 + (i + 1) % count)": "^1"]) }
        releases.append(try release("beside", "1.0.0"))
        let order = try order(releases)
        #expect(order.order == ["beside"])
        #expect(order.notLoaded.count == count)
        #expect(order.notLoaded["m10000"] == "is in a dependency cycle of 2000 modules, among them m10000 -> m10001 -> m10002 -> m10003 -> … -> m11999 -> m10000 (2000 modules)")
    }

    @Test("a chain of 2,000 modules loads in order")
    func longChain() throws {
        let releases = try (0..<2000).map { i in try release("m\(10000 + i)", "1.0.0", i == 0 ? [:] : ["m\(10000 + i - 1)": "^1"]) }
        let order = try order(releases)
        #expect(order.order == releases.map(\.id))
    }
}
