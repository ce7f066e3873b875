@testable import DenHost
import DenKit
@testable import DenWeb
import Foundation
import Logging
import Testing

/// The saved browser session's hand-written JSON form and its Codable one read each other.
@Suite("A saved browser session as a document")
struct SavedSessionDocumentTests {
    static let sample = SavedBrowserSession(
        csrfToken: "0123456789abcdef0123456789abcdef",
        values: SessionStore.Saved(user: "alice", account: "a1b2/3", values: ["main": ["last_conversion": #"{"amount":"4242","from":"USD"}"#],
                                                                             "jogs": ["filter": "2026-11\n\"quoted\" \\ \u{1}"]]),
        navigation: SavedNavigation(stack: [
            SavedNavigation.Screen(route: "jogs", moduleID: "jogs", guardedFor: "alice", snapshot: "eyJ2IjoxfQ==", shown: nil),
            SavedNavigation.Screen(route: "jogs/new", moduleID: "jogs", guardedFor: "alice", snapshot: nil,
                                   shown: Screen(title: "New jog", elements: [.field(Field(id: "date", label: "Date", value: "2026-11-20", kind: .date)),
                                                                              .button(Button(id: "save", label: "Save", role: .primary)),
                                                                              .banner(Banner(.error, "Distance: “x” is not a number"))])),
            SavedNavigation.Screen(route: "about", moduleID: nil, guardedFor: nil, snapshot: nil, shown: nil),
        ]),
        notices: ["Saved."], errors: [], openURLs: ["https://example.org/a?b=c"],
        savedAt: 1_764_340_123.456789, revision: "fedcba9876543210fedcba9876543210")

    @Test("written by hand, it is read back by hand and by JSONDecoder as the same session")
    func handWritten() throws {
        let text = Self.sample.text
        #expect(try SavedBrowserSession.read(text) == Self.sample)
        #expect(try JSONDecoder().decode(SavedBrowserSession.self, from: Data(text.utf8)) == Self.sample)
    }

    @Test("written by JSONEncoder (a copy saved by an earlier den), it is read by hand as the same session")
    func codableWritten() throws {
        let data = try JSONEncoder().encode(Self.sample)
        let parsed = try #require(JSONReader.parse(data))
        #expect(try SavedBrowserSession(wire: parsed) == Self.sample)
        #expect(try SavedBrowserSession.read(String(decoding: data, as: UTF8.self)) == Self.sample)
    }

    @Test("a damaged document is refused with JSONDecoder's words, never read as something else")
    func damaged() {
        #expect(throws: DecodingError.self) { try SavedBrowserSession.read(#"{"csrfToken": 7}"#) }
        #expect(throws: (any Error).self) { try SavedBrowserSession.read("not json") }
    }

    @Test("a saved session's key is the SHA-256 of its cookie in lower-case hex, never the cookie")
    func storageKey() {
        let store = StorageBrowserSessionStore(engine: InMemoryStorageEngine(), logger: Logger(label: "test"))
        #expect(store.key("abc") == "session/ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(store.key("0123456789abcdef0123456789abcdef")?.contains("0123456789abcdef") == false)
    }
}
