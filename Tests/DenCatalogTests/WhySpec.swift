@testable import DenCatalog
import Testing

@Suite("den modules why: the chains of installed modules that require a module, or the user's own request")
struct WhySpec {
    private let installed: [String: ModuleRelease]

    init() throws {
        installed = installedSet([
            try release("main", "1.4.0"),
            try release("jogs-stats", "1.0.0", ["main": "^1.2"]),
            try release("dashboard", "2.0.0", ["jogs-stats": "^1", "main": "^1"]),
            try release("lonely", "0.1.0"),
        ])
    }

    @Test("each chain runs from the top down to the module that requires it")
    func chains() {
        let why = Why(id: "main", installed: installed, requestedByUser: ["dashboard"])
        #expect(!why.requestedByUser)
        #expect(why.lines == [
            "dashboard 2.0.0 requires main ^1",
            "dashboard 2.0.0 requires jogs-stats ^1; jogs-stats 1.0.0 requires main ^1.2",
        ])
    }

    @Test("a chain stops at a module the user installed by name; the user's own request comes first")
    func userRequests() {
        let why = Why(id: "main", installed: installed, requestedByUser: ["main", "jogs-stats"])
        #expect(why.lines == [
            "you installed main by name",
            "dashboard 2.0.0 requires main ^1",
            "jogs-stats 1.0.0 requires main ^1.2",
        ])
    }

    @Test("nothing requires it and nobody asked; or it is not installed")
    func nothing() {
        #expect(Why(id: "lonely", installed: installed, requestedByUser: []).lines == ["nothing requires lonely, and it was not installed by name"])
        #expect(Why(id: "ghost", installed: installed, requestedByUser: []).lines == ["ghost is not installed"])
        #expect(Why(id: "dashboard", installed: installed, requestedByUser: ["dashboard"]).lines == ["you installed dashboard by name"])
    }

    @Test("a cycle ends a chain instead of looping")
    func cycle() throws {
        let installed = installedSet([try release("a", "1.0.0", ["b": "^1"]), try release("b", "1.0.0", ["a": "^1"])])
        #expect(Why(id: "a", installed: installed, requestedByUser: []).lines == ["b 1.0.0 requires a ^1"])
    }

    @Test("a lattice with very many chains lists the first ones and says there are more")
    func truncated() throws {
        // Eight layers of two modules, each requiring both of the layer below: 2^8 chains to the bottom.
        var releases = [try release("bottom", "1.0.0")]
        for layer in 0..<8 {
            for side in ["l", "r"] {
                let below = layer == 0 ? ["bottom": "*"] : ["l\(layer - 1)": "*", "r\(layer - 1)": "*"]
                releases.append(try release("\(side)\(layer)", "1.0.0", below))
            }
        }
        let why = Why(id: "bottom", installed: installedSet(releases), requestedByUser: [], limit: 16)
        #expect(why.chains.count == 16)
        #expect(why.isTruncated)
        #expect(why.lines.last == "… and more chains")
        #expect(why.chains.allSatisfy { $0.count == 8 && $0.last?.required == "bottom" })
    }
}
