import DenKit
import Foundation
import Testing

@Suite("Replies from newer or sloppier modules")
struct WireLeniencySpec {
    func decode(_ json: String) throws -> ModuleReply {
        try WireFormat.decode(ModuleReply.self, from: Data(json.utf8))
    }

    let screen = #"{"v":1,"title":"T","elements":[]}"#

    @Test("a reply without effects has none")
    func missingEffects() throws {
        #expect(try decode(#"{"v":1,"screen":\#(screen)}"#).effects.isEmpty)
    }

    @Test("an unknown effect type is ignored; the known ones stay in order")
    func unknownEffect() throws {
        let reply = try decode(#"{"v":1,"screen":\#(screen),"effects":[{"type":"vibrate"},{"type":"navigate","route":"about"},{"type":"back"}]}"#)
        #expect(reply.effects == [.navigate("about"), .back])
    }

    @Test("a malformed effect of a known type is an error, not silently dropped")
    func malformedKnownEffect() {
        #expect(throws: DecodingError.self) {
            try decode(#"{"v":1,"screen":\#(screen),"effects":[{"type":"navigate","rout":"about"}]}"#)
        }
    }

    @Test("a reply without its document version is an error: the version is how a host tells formats apart")
    func missingVersion() {
        #expect(throws: DecodingError.self) {
            try decode(#"{"screen":\#(screen)}"#)
        }
    }
}
