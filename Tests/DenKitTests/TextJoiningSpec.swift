@testable import DenKit
import Testing

@Suite("joinedText: the standard library's joined(separator:), without its generic code")
struct TextJoiningSpec {
    @Test("gives what joined(separator:) gives",
          arguments: [
              [], [""], ["", ""], ["one"], ["one", "two", "three"], ["a", "", "b", ""],
              ["ünï", "コード", "👩‍👩‍👧", "e\u{301}"], [String(repeating: "x", count: 5_000), "y"],
          ] as [[String]],
          ["\n", "", ", ", "\u{301}", "—"])
    func sameAsJoined(parts: [String], separator: String) {
        #expect(parts.joinedText(separator: separator) == parts.joined(separator: separator))
        #expect(Array(parts.joinedText(separator: separator).utf8) == Array(parts.joined(separator: separator).utf8))
    }
}
