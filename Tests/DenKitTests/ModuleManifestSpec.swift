import DenKit
import Foundation
import Testing

@Suite("ModuleManifest")
struct ModuleManifestSpec {
    private let base = ModuleManifest(id: "demo", version: "1.0.0", summary: "Demo",
                                      routes: [.init("demo"), .init("demo/<int:id>", requiresLogin: true)],
                                      settings: [SettingDefinition("size", kind: .integer, default: "3", help: "How many", minimum: 1, maximum: 9)])

    @Test("optional fields default: summary empty, requiresLogin false, no settings, no exports")
    func decodesMinimal() throws {
        let manifest = try JSONDecoder().decode(ModuleManifest.self, from: Data(#"{"v":1,"id":"x","version":"1.0.0","routes":[{"pattern":"x"}]}"#.utf8))
        #expect(manifest == ModuleManifest(id: "x", version: "1.0.0", routes: [.init("x")]))
        #expect(manifest.routes[0].requiresLogin == false)
    }

    @Test("a manifest survives its own JSON, and leaves out requiresLogin when false")
    func roundTrips() throws {
        let json = try base.json()
        #expect(try JSONDecoder().decode(ModuleManifest.self, from: Data(json.utf8)) == base)
        #expect(json.components(separatedBy: "requiresLogin").count == 2, "only the guarded route names it: \(json)")
    }

    @Test("a missing required field is a decoding error", arguments: [
        #"{"id":"x","version":"1.0.0","routes":[]}"#, #"{"v":1,"version":"1.0.0","routes":[]}"#,
        #"{"v":1,"id":"x","routes":[]}"#, #"{"v":1,"id":"x","version":"1.0.0"}"#, #"{"v":1,"id":"x","version":"1.0.0","routes":[{}]}"#,
    ])
    func missingField(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ModuleManifest.self, from: Data(json.utf8)) }
    }

    @Test("no differences from an equal registration, in any route or setting order")
    func equal() {
        var shuffled = base
        shuffled.routes.reverse()
        #expect(base.differences(from: shuffled) == [])
    }

    @Test("every difference is named: id, version, summary, a missing, an extra and a re-flagged route, settings")
    func differences() {
        var other = base
        other.id = "other"
        other.version = "1.0.1"
        other.summary = "Else"
        other.routes = [.init("demo", requiresLogin: true), .init("demo/new")]
        other.settings = [SettingDefinition("size", kind: .integer, default: "4", help: "How many", minimum: 1, maximum: 9),
                          SettingDefinition("color", kind: .string, default: "red", help: "Which")]
        let found = base.differences(from: other)
        #expect(found.contains("the manifest says id 'demo', the module registered 'other'"))
        #expect(found.contains("the manifest says version 1.0.0, the module registered 1.0.1"))
        #expect(found.contains { $0.contains("summary") })
        #expect(found.contains("route 'demo' is open in the manifest but guarded when registered"))
        #expect(found.contains("route 'demo/<int:id>' is in the manifest but was not registered"))
        #expect(found.contains("route 'demo/new' was registered but is not in the manifest"))
        #expect(found.contains("setting 'size' differs between the manifest and the declaration"))
        #expect(found.contains("setting 'color' was declared but is not in the manifest"))
        #expect(found.count == 8, "\(found)")
    }

    @Test("a manifest without an exports key says nothing about them; one with the key is checked")
    func exportsDeclaredOrNot() throws {
        let registered = ModuleManifest(id: "x", version: "1.0.0", routes: [.init("x")],
                                        exports: [.init(name: "add", signature: "(i64 a, i64 b) -> i64")])
        let silent = try JSONDecoder().decode(ModuleManifest.self, from: Data(#"{"v":1,"id":"x","version":"1.0.0","routes":[{"pattern":"x"}]}"#.utf8))
        #expect(!silent.declaresExports)
        #expect(silent.differences(from: registered) == [])
        let none = try JSONDecoder().decode(ModuleManifest.self, from: Data(#"{"v":1,"id":"x","version":"1.0.0","routes":[{"pattern":"x"}],"exports":[]}"#.utf8))
        #expect(none.declaresExports)
        #expect(none.differences(from: registered) == ["export 'add' was registered but is not in the manifest"])
        #expect(!(try silent.json()).contains("exports"), "re-encoding keeps the key out")
        #expect(try none.json().contains("\"exports\" : ["))
    }

    @Test("exports: parameter names may differ, types may not; without a signature in the notation, the name only")
    func exportTypes() {
        let manifest = ModuleManifest(id: "x", version: "1.0.0", routes: [], exports: [
            .init(name: "add", signature: "(i64 a, i64 b) -> i64"), .init(name: "greet", signature: "(string who) -> string"),
            .init(name: "any"), .init(name: "broken", signature: "(int a) -> i64"),
        ])
        let registered = ModuleManifest(id: "x", version: "1.0.0", routes: [], exports: [
            .init(name: "add", signature: "(i64 value, i64 step) -> i64"), .init(name: "greet", signature: "(string who) -> void"),
            .init(name: "any", signature: "(f64) -> bool"), .init(name: "broken", signature: "(i64 a) -> i64"),
        ])
        let found = manifest.differences(from: registered)
        #expect(found.contains("export 'greet' is (string who) -> string in the manifest but was registered as (string who) -> void"))
        #expect(found.count == 1, "a signature outside the notation ('broken') is documentation, compared by name only: \(found)")
    }

    @Test("a module definition's manifest carries its routes' guards and its settings")
    func fromDefinition() {
        let definition = ModuleDefinition(id: "demo", version: "1.0.0", summary: "Demo", routes: [
            RouteDefinition("demo") { _ in throw ModuleError.unsupported("x") },
            RouteDefinition("demo/<int:id>", requiresLogin: true) { _ in throw ModuleError.unsupported("x") },
        ], settings: base.settings)
        #expect(ModuleManifest(definition) == base)
    }
}
