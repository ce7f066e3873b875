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
        // Lengths are kept as running counts: `String.count` walks the characters, and asking it
        // for every word made a long screen (About with a hundred modules) quadratic.
        let indentCount = indent.count
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var prefix = firstIndent ?? indent
            var used = prefix.count
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                // ASCII (most words) counts by bytes; anything else by characters.
                let wordCount = word.utf8.allSatisfy { $0 < 0x80 } ? word.utf8.count : word.count
                if !line.isEmpty, used + 1 + wordCount > width {
                    lines.append(prefix + line)
                    prefix = indent
                    used = indentCount
                    line = ""
                }
                if !line.isEmpty { line += " "; used += 1 }
                line += word
                used += wordCount
            }
            lines.append(prefix + line)
        }
        return lines
    }

    /// Wraps a line whose spacing matters (the help table): breaks at the last space that keeps
    /// the line within `width`; continuation lines start with `indent`. A line that fits is kept
    /// as it is.
    static func wrapKeepingSpaces(_ line: String, width: Int, indent: String) -> [String] {
        var lines: [String] = []
        var rest = Substring(line)
        var prefix = ""
        while prefix.count + rest.count > width {
            let room = width - prefix.count
            let head = rest.prefix(room + 1)
            guard let space = head.lastIndex(of: " "), space > rest.startIndex,
                  !rest[..<space].allSatisfy({ $0 == " " }) else { break }
            var piece = String(rest[..<space])
            while piece.last == " " { piece.removeLast() }
            lines.append(prefix + piece)
            rest = rest[rest.index(after: space)...].drop { $0 == " " }
            prefix = indent
        }
        lines.append(prefix + rest)
        return lines
    }
}
