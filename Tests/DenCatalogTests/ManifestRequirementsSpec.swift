@testable import DenCatalog
import DenKit
import Testing

/// The order a start loads module files in once any of them requires another: dependencies
/// first, otherwise the folders' order; files of one id together; an unmet requirement keeps a
/// file out with why.
@Suite("A start's order of module files by their manifests' requires")
struct ManifestRequirementsSpec {
    /// A file (named by its label) whose manifest says `id`, `version` and `requires`.
    private func file(_ label: String, _ id: String, _ version: String = "1.0.0", _ requires: [String: String] = [:])
        -> (item: String, manifest: ModuleManifest) {
        (label, ModuleManifest(id: id, version: version, routes: [], requires: requires))
    }

    private func arrange(_ files: [(item: String, manifest: ModuleManifest)], loaded: [(id: String, version: String?)] = [],
                         unavailable: [String: String] = [:]) throws -> (ordered: [String], refused: [String: String]) {
        let (ordered, refused) = ManifestRequirements.arrange(files, loaded: loaded, unavailable: unavailable,
                                                              denVersion: try SemanticVersion(parsing: "1.0.0"))
        return (ordered, Dictionary(uniqueKeysWithValues: refused.map { ($0.0, $0.1) }))
    }

    @Test("modules that require nothing keep the folders' order; one that requires another moves after it, and nothing else moves")
    func foldersOrderKept() throws {
        let result = try arrange([
            file("z", "zeta"), file("user", "user", "1.0.0", ["main": "^1"]), file("a", "alpha"), file("main", "main"), file("b", "beta"),
        ])
        #expect(result.ordered == ["z", "main", "user", "a", "b"])
        #expect(result.refused.isEmpty)
    }

    @Test("files of one id load together at its place, the folders' order among them; the first file's manifest speaks for the id")
    func filesOfOneID() throws {
        let result = try arrange([
            file("user", "user", "1.0.0", ["main": "^1"]), file("bundled-main", "main", "1.0.0"), file("your-main", "main", "1.2.0"),
        ])
        #expect(result.ordered == ["bundled-main", "your-main", "user"])
    }

    @Test("an id refused keeps out its first file, its dependents with it; its other files load last, held to their own requirements then")
    func refusedFirstFile() throws {
        let result = try arrange([
            file("main-a", "main", "1.0.0", ["absent": "*"]), file("main-b", "main", "1.1.0"), file("user", "user", "1.0.0", ["main": "^1"]),
        ])
        #expect(result.refused["main-a"] == "requires absent *, but absent is not installed")
        #expect(result.refused["user"] == "requires main ^1, but main is not loaded")
        #expect(result.ordered == ["main-b"])
    }

    @Test("a module without a manifest, loaded already, counts by the version it registered; a file of its id loads last, as a second file")
    func loadedWithoutManifest() throws {
        let result = try arrange([file("user", "user", "1.0.0", ["main": "^1.2"]), file("old", "old", "1.0.0", ["legacy": "^2"]),
                                  file("legacy-again", "legacy")],
                                 loaded: [(id: "main", version: "1.3.0"), (id: "legacy", version: "1.0.0")])
        #expect(result.ordered == ["legacy-again", "user"])
        #expect(result.refused["old"] == "requires legacy ^2, but legacy 1.0.0 is installed")
    }

    @Test("a version that is no SemVer: a module that requires nothing still loads; one required is named as such; one with requires is refused")
    func notSemVer() throws {
        let result = try arrange([
            file("odd", "odd", "1.0"), file("user", "user", "1.0.0", ["odd": "^1"]), file("bad", "bad", "1.0", ["user": "^1"]),
        ])
        #expect(result.ordered == ["odd"])
        #expect(result.refused["user"]?.hasPrefix("requires odd ^1, but odd is version '1.0', not a SemVer version") == true, "\(result.refused)")
        #expect(result.refused["bad"]?.hasPrefix("has a version or requirement den cannot read") == true, "\(result.refused)")
    }

    @Test("a requirement on a module left out names why it is out")
    func unavailable() throws {
        let result = try arrange([file("user", "user", "1.0.0", ["main": "^1"])], unavailable: ["main": "is not selected by --plugins"])
        #expect(result.refused["user"] == "requires main ^1, but main is not selected by --plugins")
        #expect(result.ordered.isEmpty)
    }
}
