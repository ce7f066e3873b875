import DenKit
import Foundation
import Testing

/// `plugins.list` answers across ABI revisions: `requires_login` (revision 1) is optional both ways.
@Suite("plugins.list answers and requires_login")
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
}
