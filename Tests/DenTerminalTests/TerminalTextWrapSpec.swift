@testable import DenTerminal
@testable import DenTerminalText
import Testing

/// `wrap` splits at the bytes of " " and "\n" for speed; wherever that could split differently
/// from Characters it must hand over to `wrapByCharacters`, so the two never disagree.
@Suite("Wrapping terminal text")
struct TerminalTextWrapSpec {
    static let texts: [String] = [
        "",
        " ",
        "one",
        "about 1.0.0 — About the app: name, version, description and installed modules · generation 1, loaded 2026-11-23 07:53:26 UTC",
        "  leading and trailing spaces   between   words  ",
        "first paragraph\n\nthird after an empty one\n",
        "averyveryveryveryveryverylongwordthatcannotbreakanywhereatall and then short ones",
        "café naïve résumé — Grüße 😀 👩‍👩‍👧 flags 🇫🇷🇩🇪 end",
        "a combining mark after a space: x \u{301}y and more words here",
        "a prepended mark before a space: \u{600} x and more",
        "windows line\r\nbreak in the middle",
        "zero width joiner after a space \u{200D}x",
        "an emoji modifier after a space \u{1F3FB} and a spacing mark \u{093E} too",
        "aaaa \u{0E33}", "a  \u{0E33} Lao \u{0EB3} am",
        "a prepended mark above the BMP before a space: \u{110BD} x and more",
        "中文字符 没有 空格 的 文本 应该 按 字符 计数 宽度",
        "one-scalar words of every length: é — 😀 · ‰ and two-scalar ones: e\u{301} 👍🏽 🇫🇷 x",
        "marks after the dash: a — \u{301}b and after the dot · \u{300} and a ZWNJ \u{200C}x",
        "a variation selector after a space \u{FE0F}x, a line separator \u{2028} and a tag \u{E0061}",
        "Hangul jamo after a space \u{1100}\u{1161} and a regional indicator \u{1F1EB}",
        "fits as it stands", "ends in a mark after a space \u{301}", "\u{301} starts with a mark", "tab\tinside and a\rcarriage return",
    ]

    @Test("splitting at bytes wraps exactly as splitting at Characters", arguments: [8, 20, 40, 80, 200])
    func agreesWithCharacters(width: Int) {
        for text in Self.texts {
            for (indent, first) in [("", nil), ("    ", "  "), ("  ", "")] as [(String, String?)] {
                #expect(TerminalText.wrap(text, width: width, indent: indent, firstIndent: first)
                        == TerminalText.wrapByCharacters(text, width: width, indent: indent, firstIndent: first), "\(text)")
            }
        }
    }

    @Test("separators that share a grapheme with a neighbour send the text to the Character path")
    func graphemeJoins() {
        #expect(!TerminalText.breaksAtBytes("x \u{301}y"))
        #expect(!TerminalText.breaksAtBytes("\u{600} x"))
        #expect(!TerminalText.breaksAtBytes("a\r\nb"))
        #expect(!TerminalText.breaksAtBytes("a \u{200D}b"))
        #expect(!TerminalText.breaksAtBytes("a \u{1F3FB}b"))
        #expect(!TerminalText.breaksAtBytes("a \u{093E}b"))
        #expect(!TerminalText.breaksAtBytes("\u{110BD} x"))
        #expect(!TerminalText.breaksAtBytes("aaaa \u{0E33}"), "Thai SARA AM is a spacing mark with the category of a letter")
        #expect(!TerminalText.breaksAtBytes("a \u{0EB3}"))
        #expect(!TerminalText.breaksAtBytes("a — \u{301}b"), "a mark right after the space that follows a dash")
        #expect(!TerminalText.breaksAtBytes("a \u{200C}b"), "the zero-width non-joiner extends too")
        #expect(!TerminalText.breaksAtBytes("a \u{FE0F}b"))
        #expect(TerminalText.breaksAtBytes("1.0.0 — About · généré 😀 end"))
        #expect(TerminalText.breaksAtBytes("plain ascii\nlines"))
    }

    @Test("lines stop at the width unless a word is longer")
    func width() {
        let lines = TerminalText.wrap("the quick brown fox jumps over the lazy dog", width: 10)
        #expect(lines == ["the quick", "brown fox", "jumps over", "the lazy", "dog"])
        #expect(TerminalText.wrap("unbreakableword x", width: 5) == ["unbreakableword", "x"])
    }
}

/// Log and error lines in a terminal: wrapped at words like screens, never cut inside one.
@Suite("Log and error lines in a terminal")
struct TerminalMessageLinesSpec {
    static let line = "2026-11-26T20:00:00+0000 error den : module=swap [DenHost] hot swap refused, the old version keeps serving: libSwapModule.so: its entry point returned DEN_ERR_INTERNAL"

    @Test("a width wraps the line at word boundaries, continuation lines indented", arguments: [30, 44, 60, 80])
    func wrapsAtWords(width: Int) {
        let lines = TerminalText.messageLines(Self.line, width: width).split(separator: "\n")
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines)")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("    ") })
        let words = lines.flatMap { $0.split(separator: " ") }
        #expect(words == Self.line.split(separator: " "), "no word was cut or lost")
    }

    @Test("without a width (a pipe nobody sized) the line stays whole")
    func wholeWithoutWidth() {
        #expect(TerminalText.messageLines(Self.line, width: nil) == Self.line)
    }
}
