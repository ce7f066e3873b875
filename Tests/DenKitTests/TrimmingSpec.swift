import DenKit
import Foundation
import Testing

@Suite("trimmingWhitespace: Foundation's trimming for modules built on FoundationEssentials alone")
struct TrimmingSpec {
    @Test("it trims what Foundation's .whitespacesAndNewlines trims, and nothing else",
          arguments: ["  a b  ", "\t\n\r\u{0B}\u{0C}x\u{85}", "\u{A0}\u{1680}\u{2000}\u{200A}y\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}",
                      "", "   ", "\u{1C}z\u{1F}", "\u{200B}w\u{FEFF}", "é ", " 👩‍💻 ", "\u{301}q"])
    func matchesFoundation(text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("every scalar of the BMP, around a letter, trims as Foundation trims it")
    func everyScalar() {
        for value in 0...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "\(Character(scalar))a\(Character(scalar))"
            if text.trimmingWhitespace() != text.trimmingCharacters(in: .whitespacesAndNewlines) {
                Issue.record("U+\(String(value, radix: 16)) trims differently")
            }
        }
    }
}
