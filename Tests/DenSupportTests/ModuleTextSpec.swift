import DenSupport
import Testing

@Suite("Module text: what a module says is printed so that it cannot steer the terminal or hide text")
struct ModuleTextSpec {
    @Test("printable ASCII, every character of it, comes back as it is")
    func printableASCII() {
        let all = String((0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) })
        #expect(ModuleText.sanitize(all) == all)
        #expect(ModuleText.singleLine(all) == all)
    }

    @Test("control characters become visible: ESC as ^[, DEL as ^?, a tab as four spaces",
          arguments: [("\u{1B}[2J", "^[[2J"), ("a\u{7F}b", "a^?b"), ("a\tb", "a    b"), ("\u{0}", "^@"), ("x\ry", "x^My")])
    func controls(input: String, shown: String) {
        #expect(ModuleText.sanitize(input) == shown)
    }

    @Test("line breaks stay in multi-line places and show as ^J in one-line places")
    func lineBreaks() {
        #expect(ModuleText.sanitize("one\ntwo") == "one\ntwo")
        #expect(ModuleText.singleLine("one\ntwo") == "one^Jtwo")
    }

    @Test("C1 controls, bidi controls, zero-width spaces, the BOM and the soft hyphen become U+FFFD",
          arguments: ["\u{85}", "\u{9B}", "\u{202E}", "\u{2066}", "\u{200B}", "\u{FEFF}", "\u{AD}", "\u{600}", "\u{2028}"])
    func invisible(scalar: String) {
        #expect(ModuleText.sanitize("a" + scalar + "b") == "a\u{FFFD}b")
    }

    @Test("letters beyond ASCII, and emoji joined with the zero-width joiner, are kept",
          arguments: ["café", "Ελληνικά", "日本語", "👩‍💻", "\u{A0}", "ÿ", "\u{5FF}", "a — b · c", "“quoted” ‘x’ …", "\u{2010}\u{2027}"])
    func visibleBeyondASCII(text: String) {
        #expect(ModuleText.sanitize(text) == text)
    }

    @Test("every scalar below U+3000 is kept or replaced exactly as its Unicode category says")
    func everyScalarByCategory() {
        for value in 0xA0..<0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let isFormat = scalar.properties.generalCategory == .format && value != 0x200D
            let expected = isFormat || value == 0x2028 || value == 0x2029 ? "\u{FFFD}" : String(Character(scalar))
            if ModuleText.sanitize(String(Character(scalar))) != expected {
                Issue.record("U+\(String(value, radix: 16)) is not sanitized as its category says")
            }
        }
    }

    @Test("every scalar, between other text, is kept or replaced as the scalar-by-scalar rule says",
          arguments: [0..<0x3000, 0xFB00..<0x10000, 0x10000..<0x11000, 0x1D100..<0x1D200, 0xE0000..<0xE0100, 0x10FF00..<0x110000])
    func everyScalarInContext(values: Range<Int>) {
        // The byte check that spares most text a copy must agree with the rule on every scalar,
        // whatever its UTF-8 length and neighbours.
        for value in values {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            let hidden = ModuleText.isInvisibleOrControl(scalar)
            for text in ["a\(scalar)b", "\(scalar)", "é\(scalar)—", "😀\(scalar)"] {
                let kept = ModuleText.sanitize(text) == text
                if kept == (hidden && value != 0x0A) {
                    Issue.record("U+\(String(value, radix: 16)) in \(text.debugDescription): kept \(kept), hidden \(hidden)")
                    return
                }
            }
            if value == 0x0A { #expect(ModuleText.singleLine("a\nb") == "a^Jb") }
        }
    }

    @Test("a one-line text longer than the limit is cut with an ellipsis")
    func limit() {
        #expect(ModuleText.singleLine("abcdef", limit: 4) == "abc…")
        #expect(ModuleText.singleLine("abcd", limit: 4) == "abcd")
    }
}
