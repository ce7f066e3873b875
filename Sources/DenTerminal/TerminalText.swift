import DenHost

/// Text helpers of the terminal front-end.
enum TerminalText {
    /// Module text is untrusted: the host's one sanitiser makes control characters visible.
    static func sanitize(_ text: String) -> String {
        ModuleText.sanitize(text)
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
