@testable import DenHost
import DenKit
import Foundation
import Testing

/// The byte-level rules of a reply document (docs/ABI.md): exactly `len` bytes of JSON.
@Suite("Reading a reply's bytes")
struct ReplyReaderSpec {
    static let reply = #"{"v":1,"screen":{"v":1,"title":"T","elements":[{"type":"heading","text":"Hi"}]}}"#

    func read(_ bytes: Data) -> Result<ModuleReply, ModuleCallError> {
        Result { () throws(ModuleCallError) in try ReplyReader.read(bytes, moduleID: "m") }
    }

    @Test("whitespace around the document is fine")
    func whitespace() throws {
        let reply = try read(Data(" \n\(Self.reply)\n ".utf8)).get()
        #expect(reply.screen.elements == [.heading("Hi")])
    }

    @Test("a NUL terminator counted in len makes the document invalid")
    func trailingNUL() {
        guard case .failure(let error) = read(Data(Self.reply.utf8) + [0]) else {
            Issue.record("a trailing NUL was accepted")
            return
        }
        #expect(error.description == "module 'm' sent a reply this host cannot read (it ends in a NUL byte: len counts the document's bytes only, with no terminator)")
    }

    @Test("bytes that are no JSON text at all are named for what they are, not just 'not valid JSON'", arguments: [
        (Data(), "it is empty: on DEN_OK, reply must hold a JSON document"),
        (Data(#"{"v":1,"screen":{"v":1,"title":""#.utf8) + [0xC3, 0x28] + Data(#""}}"#.utf8), "it is not valid UTF-8 (at byte 32): documents are UTF-8 JSON"),
        (Data([0xFF]), "it is not valid UTF-8 (at byte 0): documents are UTF-8 JSON"),
    ])
    func notText(bytes: Data, expected: String) {
        guard case .failure(let error) = read(bytes) else {
            Issue.record("accepted")
            return
        }
        #expect(error.description == "module 'm' sent a reply this host cannot read (\(expected))")
    }

    @Test("a good reply is never diagnosed as unreadable; text that is not JSON is left to the decoder's words")
    func diagnosis() {
        #expect(ReplyReader.unreadable(Data(Self.reply.utf8)) == nil)
        #expect(ReplyReader.unreadable(Data("not json é".utf8)) == nil)
        guard case .failure(let error) = read(Data("not json".utf8)) else {
            Issue.record("accepted")
            return
        }
        #expect(error.description.hasPrefix("module 'm' sent a reply this host cannot read ("), "\(error)")
    }

    @Test("null is refused even where the key is optional", arguments: [
        #"{"v":1,"screen":{"v":1,"title":"T","elements":[]},"effects":null}"#,
        #"{"v":1,"screen":{"v":1,"title":"T","elements":[{"type":"text","text":"x","style":null}]}}"#,
    ])
    func null(document: String) {
        guard case .failure(let error) = read(Data(document.utf8)) else {
            Issue.record("null was accepted")
            return
        }
        #expect(error.description.contains("contains null"))
    }

    @Test("a string that merely contains 'null' or brackets is not mistaken for structure")
    func stringsAreSkipped() throws {
        let deep = String(repeating: "[", count: 100)
        let document = #"{"v":1,"screen":{"v":1,"title":"null \"\#(deep)","elements":[]}}"#
        #expect(try read(Data(document.utf8)).get().screen.title == "null \"\(deep)")
    }

    @Test("exactly 64 levels pass; 65 are refused")
    func nestingBoundary() {
        func document(depth: Int) -> Data {
            // The reply object is level 1; "extra" adds arrays up to `depth` levels in all.
            let arrays = depth - 1
            return Data((#"{"v":1,"extra":"# + String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays)
                + #","screen":{"v":1,"title":"T","elements":[]}}"#).utf8)
        }
        #expect((try? read(document(depth: 64)).get()) != nil)
        guard case .failure(let error) = read(document(depth: 65)) else {
            Issue.record("65 levels were accepted")
            return
        }
        #expect(error.description.contains("nested more than 64 levels deep"))
    }
}
