import DenKit
import Foundation
import Testing

/// `plugins.list` answers across ABI revisions: `requires_login` (revision 1) is optional both
/// ways, and a request's `fields` (revision 3) leaves out what it does not name.
@Suite("plugins.list answers, requires_login and fields")
struct PluginCatalogWireSpec {
    @Test("an answer from a host before revision 1 reads with no guarded routes")
    func olderHost() throws {
        let json = #"{"plugins":[{"id":"about","file":"libAboutModule.so","routes":["about"],"status":"active"}]}"#
        let answer = try WireFormat.decode(PluginListResponse.self, from: Data(json.utf8))
        #expect(answer.plugins.first?.routes == ["about"])
        #expect(answer.plugins.first?.requiresLogin == nil)
    }

    @Test("guarded routes travel as requires_login and come back; none leaves the key out")
    func roundTrip() throws {
        let guarded = PluginSummary(id: "jogs", version: "1.0.0", summary: nil, file: "libJogsModule.so",
                                    routes: ["jogs", "jogs/about"], requiresLogin: ["jogs"], status: .active)
        let open = PluginSummary(id: "about", version: "1.0.0", summary: nil, file: "libAboutModule.so", routes: ["about"], status: .active)
        let data = try WireFormat.encode(PluginListResponse(plugins: [guarded, open]))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""requires_login":["jogs"]"#), "\(text)")
        #expect(text.components(separatedBy: "requires_login").count == 2, "only the guarded plugin has the key: \(text)")
        #expect(try WireFormat.decode(PluginListResponse.self, from: data).plugins == [guarded, open])
    }

    @Test("a request names its fields as their JSON keys; one that names none asks for every field")
    func requestForFields() throws {
        let some = try WireFormat.encode(PluginListRequest(fields: [.id, .loadedAt, .requiresLogin]))
        #expect(String(decoding: some, as: UTF8.self) == #"{"fields":["id","loaded_at","requires_login"]}"#)
        #expect(String(decoding: try WireFormat.encode(PluginListRequest()), as: UTF8.self) == "{}")
        #expect(try WireFormat.decode(PluginListRequest.self, from: some).fields == ["id", "loaded_at", "requires_login"])
    }

    @Test("an answer with some fields writes only those, with file and status, and reads back with the rest empty")
    func answerWithSomeFields() throws {
        var full = PluginSummary(id: "jogs", version: "1.0.0", summary: "A jogging log", file: "libJogsModule.so",
                                 routes: ["jogs", "jogs/about"], requiresLogin: ["jogs"], status: .active)
        full.generation = 2
        full.loadedAt = "2026-11-24T02:03:04Z"
        full.swapError = "refused"
        let data = try WireFormat.encode(PluginListResponse(plugins: [full], fields: PluginSummary.Fields([.id, .generation])))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text == #"{"plugins":[{"file":"libJogsModule.so","generation":2,"id":"jogs","status":"active"}]}"#)

        // Both readers (the hand-written one and JSONDecoder's) take the answer without routes.
        let read = try WireFormat.decode(PluginListResponse.self, from: data).plugins
        let decoded = try JSONDecoder().decode(PluginListResponse.self, from: data).plugins
        let expected = { () -> PluginSummary in
            var plugin = PluginSummary(id: "jogs", version: nil, summary: nil, file: "libJogsModule.so", routes: [], status: .active)
            plugin.generation = 2
            return plugin
        }()
        #expect(read == [expected])
        #expect(decoded == [expected])
    }

    @Test("field names this DenKit does not know are ignored, as a later revision's would be")
    func unknownFieldNames() {
        #expect(PluginSummary.Fields(names: ["id", "colour", "loaded_at"]) == PluginSummary.Fields([.id, .loadedAt]))
        #expect(PluginSummary.Fields(names: []) == PluginSummary.Fields([]))
        #expect(PluginSummary.Fields(names: PluginSummary.Field.all.map(\.rawValue)) == .all)
    }
}
