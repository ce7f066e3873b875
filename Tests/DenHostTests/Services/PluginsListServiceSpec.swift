import DenHost
import DenKit
import Foundation
import Testing

/// `plugins.list` as a module calls it: every field by default, only the named ones with
/// `fields` (ABI revision 3), and a clear refusal of a request it cannot read.
@Suite("The plugins.list service")
struct PluginsListServiceSpec {
    static let jogs: PluginSummary = {
        var plugin = PluginSummary(id: "jogs", version: "1.2.0", summary: "A jogging log", file: "libJogsModule.so",
                                   routes: ["jogs", "jogs/<int:id>"], requiresLogin: ["jogs"], status: .active)
        plugin.generation = 3
        plugin.loadedAt = "2026-11-24T02:03:04Z"
        return plugin
    }()

    static let broken = PluginSummary(id: nil, version: nil, summary: nil, file: "libBroken.so", routes: [],
                                      status: .failed, error: "no entry point — rebuild it")

    let service = PluginsListService { [PluginsListServiceSpec.jogs, PluginsListServiceSpec.broken] }

    private func call(_ json: String) throws(ServiceFailure) -> String {
        try ServiceTestSupport.call(service, "plugins.list", json, as: "about")
    }

    @Test("{} answers every field of every plugin file, as before revision 3")
    func everyField() throws {
        let answer = try call("{}")
        #expect(answer == #"{"plugins":[{"file":"libJogsModule.so","generation":3,"id":"jogs","loaded_at":"2026-11-24T02:03:04Z","requires_login":["jogs"],"routes":["jogs","jogs/<int:id>"],"status":"active","summary":"A jogging log","version":"1.2.0"},{"error":"no entry point — rebuild it","file":"libBroken.so","routes":[],"status":"failed"}]}"#)
        #expect(try call(#"{"later_key": true}"#) == answer, "a key of a later revision is ignored")
    }

    @Test("fields answers only the fields named, with file and status always")
    func someFields() throws {
        #expect(try call(#"{"fields":["id","version","loaded_at"]}"#)
            == #"{"plugins":[{"file":"libJogsModule.so","id":"jogs","loaded_at":"2026-11-24T02:03:04Z","status":"active","version":"1.2.0"},{"file":"libBroken.so","status":"failed"}]}"#)
        #expect(try call(#"{"fields":["error"]}"#)
            == #"{"plugins":[{"file":"libJogsModule.so","status":"active"},{"error":"no entry point — rebuild it","file":"libBroken.so","status":"failed"}]}"#)
        #expect(try call(#"{"fields":[]}"#)
            == #"{"plugins":[{"file":"libJogsModule.so","status":"active"},{"file":"libBroken.so","status":"failed"}]}"#)
    }

    @Test("a field name the host does not know is ignored, so a later module's request still works")
    func unknownName() throws {
        #expect(try call(#"{"fields":["id","colour"]}"#)
            == #"{"plugins":[{"file":"libJogsModule.so","id":"jogs","status":"active"},{"file":"libBroken.so","status":"failed"}]}"#)
    }

    @Test("fields that are not a list of names are refused, saying what fields must be and which names there are",
          arguments: [#"{"fields":"id"}"#, #"{"fields":[1]}"#, #"{"fields":null}"#, #"{"fields":{"id":true}}"#])
    func badFields(request: String) {
        #expect {
            try call(request)
        } throws: { error in
            guard let failure = error as? ServiceFailure else { return false }
            return failure.kind == .invalidArgument && failure.message.contains(#""fields" must be a list of field names"#)
                && failure.message.contains("loaded_at") && failure.message.contains("file and status are always answered")
        }
    }

    @Test("a request over JSONReader's size reads the same: its fields are used, or refused in the same words")
    func largeRequest() throws {
        let padding = String(repeating: "x", count: JSONReader.maximumBytes)
        #expect(try call(#"{"padding":"\#(padding)","fields":["id"]}"#)
            == #"{"plugins":[{"file":"libJogsModule.so","id":"jogs","status":"active"},{"file":"libBroken.so","status":"failed"}]}"#)
        #expect {
            try call(#"{"padding":"\#(padding)","fields":"id"}"#)
        } throws: { error in
            (error as? ServiceFailure)?.message.contains(#""fields" must be a list of field names"#) == true
        }
        #expect {
            try call(#"["\#(padding)"]"#)
        } throws: { error in
            (error as? ServiceFailure)?.message.hasPrefix("plugins.list: malformed request") == true
        }
    }

    @Test("a request that is not a JSON object is refused with the decoder's words", arguments: ["[]", "\"fields\"", "{", ""])
    func notAnObject(request: String) {
        #expect {
            try call(request)
        } throws: { error in
            guard let failure = error as? ServiceFailure else { return false }
            return failure.kind == .invalidArgument && failure.message.hasPrefix("plugins.list: malformed request")
        }
    }

    @Test("DenKit's catalog asks for the fields and reads the shorter answer", arguments: [
        [PluginSummary.Field.id, .version, .summary, .generation, .loadedAt], [], PluginSummary.Field.all,
    ])
    func catalogRoundTrip(fields: [PluginSummary.Field]) throws {
        let request = try WireFormat.encode(PluginListRequest(fields: fields))
        let answer = try service.handle("plugins.list", request: request, caller: ServiceCaller(moduleID: "about"))
        let plugins = try WireFormat.decode(PluginListResponse.self, from: answer).plugins
        #expect(plugins.map(\.file) == ["libJogsModule.so", "libBroken.so"])
        #expect(plugins.map(\.status) == [.active, .failed])
        let asked = Set(fields)
        #expect(plugins[0].id == (asked.contains(.id) ? "jogs" : nil))
        #expect(plugins[0].version == (asked.contains(.version) ? "1.2.0" : nil))
        #expect(plugins[0].summary == (asked.contains(.summary) ? "A jogging log" : nil))
        #expect(plugins[0].generation == (asked.contains(.generation) ? 3 : nil))
        #expect(plugins[0].loadedAt == (asked.contains(.loadedAt) ? "2026-11-24T02:03:04Z" : nil))
        #expect(plugins[0].routes == (asked.contains(.routes) ? ["jogs", "jogs/<int:id>"] : []))
        #expect(plugins[1].error == (asked.contains(.error) ? "no entry point — rebuild it" : nil))
    }
}
