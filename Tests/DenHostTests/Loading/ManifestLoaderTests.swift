@testable import DenHost
import DenKit
@testable import DenModuleFiles
import DenTestSupport
import Foundation
import Testing

/// The manifest (`den_manifest`) read from real .so files: readable without loading, and the
/// registration checked against it at load.
@Suite("Module manifests in real .so files")
struct ManifestLoaderTests {
    @Test("the bundled modules carry a manifest that is read from the file without loading it", arguments: ["About", "Main", "Login", "Jogs"])
    func bundledManifest(name: String) throws {
        let inspection = try ModuleFileInspection.inspect(BuildProducts.require(BuildProducts.library("\(name)Module")))
        let manifest = try #require(inspection.manifest, "\(inspection)")
        #expect(manifest.id == name.lowercased())
        #expect(!manifest.routes.isEmpty)
        #expect(inspection.abiVersion == 1)
        #expect(inspection.toolchain == DenModule.toolchain)
        #expect(inspection.problems == [])
    }

    @Test("inspecting a file whose constructor aborts runs none of its code")
    func inspectsWithoutLoading() throws {
        // Loading DenFixtureLazyAbort would kill this test process.
        let inspection = try ModuleFileInspection.inspect(BuildProducts.require(BuildProducts.library("DenFixtureLazyAbort")))
        #expect(inspection.manifest?.id == "lazy-abort")
        #expect(inspection.manifest?.routes == [.init("boom")])
    }

    @Test("a plugin without a manifest has none, and nothing stops it")
    func noManifest() throws {
        let inspection = try ModuleFileInspection.inspect(BuildProducts.require(BuildProducts.library("DenFixtureGuardedRoute")))
        #expect(inspection.manifest == nil && inspection.manifestProblem == nil)
        #expect(inspection.problems == [])
    }

    @Test("a file that is no library is refused by the inspection, naming why")
    func inspectsGarbage() throws {
        let folder = try PluginFolder()
        let text = try folder.write(Array("hello".utf8), as: "libText.so")
        #expect(throws: PluginLoadError(file: text.path, cause: .notELF)) { try ModuleFileInspection.inspect(text) }
    }

    @Test("a registration that differs from the manifest is refused, naming every difference")
    func mismatch() throws {
        let folder = try PluginFolder()
        try folder.add("DenFixtureManifestMismatch")
        try folder.add("AboutModule")
        let runtime = try folder.runtime()

        let record = try #require(runtime.record("libDenFixtureManifestMismatch.so"))
        guard case .manifestMismatch(let differences) = record.error?.cause else {
            Issue.record("expected a manifest mismatch, got \(String(describing: record.error))")
            return
        }
        #expect(differences.contains("the manifest says version 1.0.0, the module registered 1.0.1"))
        #expect(differences.contains("route 'mismatch' is open in the manifest but guarded when registered"))
        #expect(differences.contains("route 'mismatch/extra' is in the manifest but was not registered"))
        #expect(differences.contains("route 'mismatch/other' was registered but is not in the manifest"))
        #expect(differences.contains("export 'twice' is (i64 n) -> i64 in the manifest but was registered as (f64 n) -> i64"))
        #expect(differences.contains("export 'listed_only' is in the manifest but was not registered"))
        #expect(differences.contains("export 'registered_only' was registered but is not in the manifest"))
        #expect(differences.count == 7, "\(differences)")
        #expect(record.error?.fix.contains("den plugins --inspect") == true)
        #expect(!runtime.registry.routes.contains { $0.moduleID == "mismatch" }, "none of its routes is served")
        #expect(runtime.record("libAboutModule.so")?.isActive == true, "the others load")
    }

    @Test("a malformed manifest is refused before any code of the plugin runs")
    func badManifest() throws {
        let folder = try PluginFolder()
        try folder.add("DenFixtureBadManifest") // its constructor aborts: reaching dlopen kills the test
        let runtime = try folder.runtime()

        let error = try #require(runtime.record("libDenFixtureBadManifest.so")?.error)
        guard case .invalidManifest(let detail) = error.cause else {
            Issue.record("expected an invalid manifest, got \(error)")
            return
        }
        #expect(detail.contains("routes"), "\(detail)")
        #expect(error.description.contains("module.json"), "the fix says where to look")
    }
}

@Suite("Manifest documents: every rule, every refusal")
struct ManifestDecodingTests {
    private func problem(_ json: String) -> String? {
        if case .failure(let problem) = ManifestDecoding.decode(Array(json.utf8) + [0]) { return problem.description }
        return nil
    }

    @Test("a good manifest decodes, stopping at the NUL")
    func good() throws {
        let bytes = Array(#"{"v":1,"id":"ok","version":"1.2.3","routes":[{"pattern":"ok/<int:n>","requiresLogin":true}]}"#.utf8) + [0, 0x41]
        let manifest = try ManifestDecoding.decode(bytes).get()
        #expect(manifest.routes == [.init("ok/<int:n>", requiresLogin: true)])
    }

    @Test("a den_manifest declared as a pointer (8 bytes of address) is named as such; an 8-byte document is still read", arguments: [
        [UInt8]([0x10, 0x20, 0x40, 0x55, 0x55, 0x55, 0, 0]),
        [UInt8]([0, 0, 0, 0, 0, 0, 0, 0]),
    ])
    func pointerManifest(bytes: [UInt8]) {
        guard case .failure(let problem) = ManifestDecoding.decode(bytes) else {
            Issue.record("accepted")
            return
        }
        #expect(problem.description == "it is 8 bytes that are not JSON: declared as a pointer? `den_manifest` must be a char array (DEN_DEFINE_MANIFEST in den_module.h)")
        // Eight bytes that start a document are left to the JSON rules, which say what is wrong.
        guard case .failure(let short) = ManifestDecoding.decode(Array(#"{"v":1}"#.utf8) + [0]) else { return }
        #expect(!short.description.contains("pointer"), "\(short)")
    }

    /// A manifest with routes r1…r20, then `repeated` again.
    static func manyRoutes(repeating repeated: String) -> String {
        var routes: [String] = []
        for number in 1...20 { routes.append("{\"pattern\":\"r\(number)\"}") }
        routes.append("{\"pattern\":\"\(repeated)\"}")
        return "{\"v\":1,\"id\":\"x\",\"version\":\"1.0.0\",\"routes\":[" + routes.joined(separator: ",") + "]}"
    }

    @Test("each broken rule is named", arguments: [
        (#"{"v":2,"id":"x","version":"1.0.0","routes":[]}"#, "format version"),
        (#"{"v":1,"id":"X Y","version":"1.0.0","routes":[]}"#, "module id 'X Y' is not valid"),
        (#"{"v":1,"id":"x","version":"1","routes":[]}"#, "version '1' is not valid"),
        (#"{"v":1,"id":"x","version":"1.0.0","routes":[{"pattern":"a/../b"}]}"#, "route pattern 'a/../b'"),
        (#"{"v":1,"id":"x","version":"1.0.0","routes":[{"pattern":"a"},{"pattern":"a"}]}"#, "listed twice"),
        // Many routes are checked with a set, a few by comparing: a repeat is found either way.
        (manyRoutes(repeating: "r7"), "route 'r7' is listed twice"),
        (manyRoutes(repeating: "r20"), "route 'r20' is listed twice"),
        (#"{"v":1,"id":"x","version":"1.0.0","routes":[],"settings":[{"name":"n","type":"integer","default":"a","help":"h"}]}"#, "default of setting 'n'"),
        (#"{"v":1,"id":"x","version":"1.0.0","routes":[],"exports":[{"name":""}]}"#, "export"),
        (#"{"v":1,"id":"x","version":"1.0.0","routes":[],"summary":null}"#, "null"),
        (#"{"v":1,"id":"x""#, "not a valid manifest document"),
        ("", "empty"),
        // Navigation entries: the shell draws and follows them, so each must make sense.
        (#"{"v":1,"id":"x","version":"1.0.0","routes":[{"pattern":"x"}],"navigation":[{"title":"X","route":"elsewhere"}]}"#,
         "opens 'elsewhere', which none of the module's own routes serves"),
        (#"{"v":1,"id":"x","version":"1.0.0","routes":[{"pattern":"x/<int:id>"}],"navigation":[{"title":"X","route":"x/<int:id>"}]}"#,
         "no placeholder"),
        (#"{"v":1,"id":"x","version":"1.0.0","routes":[{"pattern":"x"}],"navigation":[{"title":"Two\nlines","route":"x"}]}"#,
         "on one line"),
        (#"{"v":1,"id":"x","version":"1.0.0","routes":[{"pattern":"x"}],"navigation":["#
            + Array(repeating: #"{"title":"X","route":"x"}"#, count: 9).joined(separator: ",") + "]}", "at most 8"),
    ])
    func refused(json: String, expected: String) throws {
        let found = try #require(problem(json), "\(json) was accepted")
        #expect(found.contains(expected), "\(found)")
    }

    @Test("navigation entries are read with their defaults; a manifest without any reads as before")
    func navigation() throws {
        let json = #"{"v":1,"id":"x","version":"1.0.0","routes":[{"pattern":"x"},{"pattern":"x/<int:id>"}],"#
            + #""navigation":[{"title":"X","route":"x","order":5,"requiresLogin":true},{"title":"First","route":"x/1"}]}"#
        guard case .success(let manifest) = ManifestDecoding.decode(Array(json.utf8)) else {
            Issue.record("refused a manifest with navigation entries")
            return
        }
        #expect(manifest.navigation == [NavigationEntry(title: "X", route: "x", order: 5, requiresLogin: true),
                                         NavigationEntry(title: "First", route: "x/1")])
        guard case .success(let old) = ManifestDecoding.decode(Array(#"{"v":1,"id":"x","version":"1.0.0","routes":[{"pattern":"x"}]}"#.utf8)) else {
            Issue.record("refused a manifest without navigation entries")
            return
        }
        #expect(old.navigation.isEmpty)
    }

    @Test("bytes that are not UTF-8, and a manifest over 64 KiB, are refused")
    func limits() {
        if case .failure(let problem) = ManifestDecoding.decode([0x7B, 0xFF, 0xFE, 0x7D]) {
            #expect(problem.description.contains("UTF-8"))
        } else { Issue.record("accepted invalid UTF-8") }
        let long = Array(repeating: UInt8(ascii: " "), count: ModuleManifest.maximumBytes + 1)
        if case .failure(let problem) = ManifestDecoding.decode(long) {
            #expect(problem.description.contains("64 KiB"))
        } else { Issue.record("accepted an oversized manifest") }
    }

    @Test("nesting deeper than the wire limit is refused before decoding")
    func deep() throws {
        let json = #"{"v":1,"id":"x","version":"1.0.0","routes":[],"exports":[{"name":"a","signature":"#
            + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}]}"
        let found = try #require(problem(json))
        #expect(found.contains("nest") || found.contains("deep"), "\(found)")
    }

    @Test("64 levels are read as a manifest (and refused for what they hold); 65 are refused as too deep")
    func depthBoundary() throws {
        // The manifest object is level 1, the exports list 2, an export 3; arrays add the rest.
        func manifest(depth: Int) -> String {
            #"{"v":1,"id":"x","version":"1.0.0","routes":[],"exports":[{"name":"a","signature":"#
                + String(repeating: "[", count: depth - 3) + String(repeating: "]", count: depth - 3) + "}]}"
        }
        let at64 = try #require(problem(manifest(depth: 64)))
        #expect(!at64.contains("levels deep"), "\(at64)")
        let at65 = try #require(problem(manifest(depth: 65)))
        #expect(at65.contains("nested more than 64 levels deep"), "\(at65)")
    }
}

@Suite("The host reads manifests as docs/schema/v1/manifest.json describes them")
struct ManifestCorpusTests {
    static func files(_ validity: String) -> [URL] {
        let folder = SchemaCorpusHostSpec.corpus.appendingPathComponent("\(validity)/manifest")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test("the corpus has manifests both ways")
    func present() {
        #expect(Self.files("valid").count >= 3 && Self.files("invalid").count >= 5)
    }

    @Test("every manifest the schema accepts, the host accepts", arguments: files("valid"))
    func valid(file: URL) throws {
        let result = ManifestDecoding.decode(Array(try Data(contentsOf: file)))
        if case .failure(let problem) = result { Issue.record("\(file.lastPathComponent): \(problem)") }
    }

    @Test("every manifest the schema refuses, the host refuses", arguments: files("invalid"))
    func invalid(file: URL) throws {
        let result = ManifestDecoding.decode(Array(try Data(contentsOf: file)))
        if case .success = result { Issue.record("the host took \(file.lastPathComponent)") }
    }
}
