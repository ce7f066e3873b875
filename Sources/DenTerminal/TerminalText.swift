/// Module text is untrusted: before it reaches the terminal, control characters (escape
/// sequences could move the cursor, retitle the window or hide text) become visible `^X` forms.
enum TerminalText {
    static func sanitize(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: result.unicodeScalars.append(scalar)
            case 0x09: result += "    "
            case 0x00..<0x20: result += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
            case 0x7F: result += "^?"
            case 0x80..<0xA0, 0x202A...0x202E, 0x2066...0x2069: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Wraps `text` at word boundaries so that no line (indent included) passes `width` columns
    /// unless one word is longer; keeps explicit line breaks. The first line of each paragraph
    /// starts with `firstIndent` (default: `indent`), the others with `indent`.
    static func wrap(_ text: String, width: Int, indent: String = "", firstIndent: String? = nil) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var prefix = firstIndent ?? indent
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                if !line.isEmpty, prefix.count + line.count + 1 + word.count > width {
                    lines.append(prefix + line)
                    prefix = indent
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(prefix + line)
        }
        return lines
    }
}
