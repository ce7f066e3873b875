@testable import DenKit
import Foundation
import Testing

@Suite("Events, replies and effects on the wire")
struct EventReplyWireFormatSpec {
    @Test("events survive a round trip", arguments: [
        ModuleEvent.appear,
        .action(id: "convert", fields: [:]),
        .action(id: "convert", fields: ["amount": "12.5", "from": "EUR", "note": "ünïcødé \"quoted\""]),
    ])
    func eventRoundTrip(event: ModuleEvent) throws {
        #expect(try WireJSON.roundTrip(event) == event)
    }

    @Test("an action event encodes as {fields, id, type: action, v: 1}")
    func actionShape() throws {
        let event = ModuleEvent.action(id: "convert", fields: ["amount": "12"])

        #expect(try WireJSON.text(event) == #"{"fields":{"amount":"12"},"id":"convert","type":"action","v":1}"#)
    }

    @Test("an appear event encodes as {type: appear, v: 1}")
    func appearShape() throws {
        #expect(try WireJSON.text(ModuleEvent.appear) == #"{"type":"appear","v":1}"#)
    }

    @Test("an event without v is read as version 1, and an action without fields has none")
    func lenientEvent() throws {
        #expect(try WireJSON.decode(ModuleEvent.self, #"{"type":"appear"}"#) == .appear)
        #expect(try WireJSON.decode(ModuleEvent.self, #"{"type":"action","id":"go"}"#) == .action(id: "go", fields: [:]))
    }

    @Test("an unknown event type fails to decode with a message naming it")
    func unknownEventType() throws {
        let error = try #require(throws: DecodingError.self) {
            try WireJSON.decode(ModuleEvent.self, #"{"v":1,"type":"tap"}"#)
        }
        let message = WireFormat.describe(error)
        #expect(message.contains("unknown event type 'tap'"), "\(message)")
        #expect(message.hasPrefix("type:"), "\(message)")
    }

    @Test("an event from a newer wire version fails to decode, saying so")
    func newerEventVersion() throws {
        let error = try #require(throws: DecodingError.self) {
            try WireJSON.decode(ModuleEvent.self, #"{"v":99,"type":"appear"}"#)
        }
        let message = WireFormat.describe(error)
        #expect(message.contains("99"), "\(message)")
        #expect(message.contains("newer"), "\(message)")
    }

    @Test("an action without an id fails to decode, naming the key")
    func actionWithoutID() throws {
        let error = try #require(throws: DecodingError.self) {
            try WireJSON.decode(ModuleEvent.self, #"{"v":1,"type":"action"}"#)
        }
        #expect(WireFormat.describe(error).contains("missing key 'id'"))
    }

    @Test("effects have a fixed wire shape; open_url carries its address under url", arguments: [
        (Effect.navigate("jogs/42"), #"{"route":"jogs/42","type":"navigate"}"#),
        (.back, #"{"type":"back"}"#),
        (.replace("login?next=jogs"), #"{"route":"login?next=jogs","type":"replace"}"#),
        (.openURL("https://example.org/a?b=c"), #"{"type":"open_url","url":"https://example.org/a?b=c"}"#),
    ])
    func effectShape(effect: Effect, json: String) throws {
        #expect(try WireJSON.text(effect) == json)
        #expect(try WireJSON.decode(Effect.self, json) == effect)
    }

    @Test("an unknown effect type fails to decode with a message naming it")
    func unknownEffect() throws {
        let error = try #require(throws: DecodingError.self) {
            try WireJSON.decode(Effect.self, #"{"type":"teleport","route":"x"}"#)
        }
        #expect(WireFormat.describe(error).contains("unknown effect type 'teleport'"))
    }

    @Test("an open_url effect without url fails to decode")
    func openURLNeedsURL() {
        #expect(throws: DecodingError.self) { try WireJSON.decode(Effect.self, #"{"type":"open_url","route":"x"}"#) }
    }

    @Test("a reply carries version, screen and effects in order through a round trip")
    func replyRoundTrip() throws {
        let reply = ModuleReply(screen: Screen(title: "Done", elements: [.banner(Banner(.success, "Saved"))]),
                                effects: [.openURL("https://example.org"), .navigate("jogs"), .back])

        let decoded = try WireJSON.roundTrip(reply)

        #expect(decoded == reply)
        #expect(decoded.v == WireFormat.version)
        #expect(ModuleReply(screen: Screen(title: "x", elements: [])).effects.isEmpty)
    }

    @Test("a reply document is {effects, screen, v}")
    func replyShape() throws {
        let reply = ModuleReply(screen: Screen(title: "T", elements: []), effects: [.back])

        #expect(try WireJSON.text(reply) == #"{"effects":[{"type":"back"}],"screen":{"elements":[],"title":"T","v":1},"v":1}"#)
    }
}

@Suite("WireFormat error messages")
struct WireFormatDescribeSpec {
    @Test("a missing key is reported with a readable path to where it is missing")
    func missingKeyPath() throws {
        let json = #"{"v":1,"title":"T","elements":[{"type":"heading","text":"ok"},{"type":"heading"}]}"#
        let error = try #require(throws: DecodingError.self) { try WireJSON.decode(Screen.self, json) }

        #expect(WireFormat.describe(error) == "elements[1]: missing key 'text'")
    }

    @Test("a missing top-level key is reported against the document")
    func missingTopLevelKey() throws {
        let error = try #require(throws: DecodingError.self) { try WireJSON.decode(Screen.self, #"{"v":1,"elements":[]}"#) }

        #expect(WireFormat.describe(error) == "document: missing key 'title'")
    }

    @Test("a wrong type names the path and the expected type")
    func typeMismatch() throws {
        let error = try #require(throws: DecodingError.self) {
            try WireJSON.decode(Screen.self, #"{"v":1,"title":5,"elements":[]}"#)
        }
        let message = WireFormat.describe(error)

        #expect(message == "title: expected a string but found a number", "\(message)")
    }

    private enum Level: String, Decodable { case info, error }
    private struct Levelled: Decodable { let level: Level }
    private struct Listed: Decodable { let names: [String] }

    @Test("a value an enumerated field does not take is said so, not in Swift's words")
    func unknownValue() throws {
        let error = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(Levelled.self, from: Data(#"{"level":"loud"}"#.utf8))
        }
        #expect(WireFormat.describe(error) == "level: 'loud' is not one of the values it takes")
    }

    @Test("JSON's kinds, not Swift's types, in a type mismatch", arguments: [
        (#"{"v":1,"title":{},"elements":[]}"#, "title: expected a string but found an object"),
        (#"{"v":1,"title":"T","elements":"none"}"#, "elements: expected an array but found a string"),
        (#"{"v":"1","title":"T","elements":[]}"#, "v: expected a whole number but found a string"),
    ])
    func kinds(json: String, expected: String) throws {
        let error = try #require(throws: DecodingError.self) { try WireJSON.decode(Screen.self, json) }
        #expect(WireFormat.describe(error) == expected)
    }

    @Test("a nested path mixes keys and indices")
    func nestedPath() throws {
        let json = #"{"v":1,"title":"T","elements":[{"type":"list","items":[{"title":"a"},{"detail":"no title"}]}]}"#
        let error = try #require(throws: DecodingError.self) { try WireJSON.decode(Screen.self, json) }

        #expect(WireFormat.describe(error) == "elements[0].items[1]: missing key 'title'")
    }

    @Test("a non-decoding error is described as itself")
    func otherErrors() {
        #expect(WireFormat.describe(ModuleError.failed("disk full")) == "disk full")
    }
}
