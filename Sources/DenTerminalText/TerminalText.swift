import DenHost

/// Text helpers of the terminal front-end.
package enum TerminalText {
    /// Module text is untrusted: the host's one sanitiser makes control characters visible.
    package static func sanitize(_ text: String) -> String {
        ModuleText.sanitize(text)
    }

    /// Wraps `text` at word boundaries so that no line (indent included) passes `width` columns
    /// unless one word is longer; keeps explicit line breaks. The first line of each paragraph
    /// starts with `firstIndent` (default: `indent`), the others with `indent`.
    package static func wrap(_ text: String, width: Int, indent: String = "", firstIndent: String? = nil) -> [String] {
        guard breaksAtBytes(text) else { return wrapByCharacters(text, width: width, indent: indent, firstIndent: firstIndent) }
        // Splits at the bytes of "\n" and " ": a screen of a hundred lines costs microseconds,
        // where splitting by Character walked every grapheme (About with a hundred modules).
        var text = text
        return text.withUTF8 { bytes in
            var lines: [String] = []
            let indentCount = indent.count
            var line: [UInt8] = []
            var start = 0
            while true {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                var prefix = firstIndent ?? indent
                var used = prefix.count
                line.removeAll(keepingCapacity: true)
                var cursor = start
                while cursor < end {
                    guard bytes[cursor] != 0x20 else { cursor += 1; continue }
                    var wordEnd = cursor
                    var ascii = true
                    while wordEnd < end, bytes[wordEnd] != 0x20 {
                        if bytes[wordEnd] >= 0x80 { ascii = false }
                        wordEnd += 1
                    }
                    let word = UnsafeBufferPointer(rebasing: bytes[cursor..<wordEnd])
                    // ASCII (most words) counts by bytes; anything else by characters.
                    let wordCount = ascii ? word.count : String(decoding: word, as: UTF8.self).count
                    if !line.isEmpty, used + 1 + wordCount > width {
                        lines.append(prefix + String(decoding: line, as: UTF8.self))
                        prefix = indent
                        used = indentCount
                        line.removeAll(keepingCapacity: true)
                    }
                    if !line.isEmpty {
                        line.append(0x20)
                        used += 1
                    }
                    line.append(contentsOf: word)
                    used += wordCount
                    cursor = wordEnd
                }
                lines.append(prefix + String(decoding: line, as: UTF8.self))
                guard end < bytes.count else { return lines }
                start = end + 1
            }
        }
    }

    /// The reference `wrap`, splitting by Character; used where a byte split could differ.
    static func wrapByCharacters(_ text: String, width: Int, indent: String = "", firstIndent: String? = nil) -> [String] {
        var lines: [String] = []
        let indentCount = indent.count
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var layout = LineLayout(prefix: firstIndent ?? indent)
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                layout.add(word, width: width, indent: indent, indentCount: indentCount, into: &lines)
            }
            lines.append(layout.prefix + layout.line)
        }
        return lines
    }

    /// Whether splitting at the bytes of "\n" and " " splits where Characters do: not when a
    /// separator shares a grapheme with a neighbour (a combining mark after a space, a
    /// prepended mark before one, "\r\n"). Only separators next to non-ASCII bytes need asking.
    static func breaksAtBytes(_ text: String) -> Bool {
        let utf8 = text.utf8
        var previous: UInt8 = 0
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte == 0x0A || byte == 0x20 {
                if byte == 0x0A, previous == 0x0D { return false }
                if previous >= 0x80, mayJoin(before: index, in: text), !isCharacterBoundary(index, in: text) { return false }
                if next < utf8.endIndex, utf8[next] >= 0x80, mayJoin(after: next, in: text), !isCharacterBoundary(next, in: text) {
                    return false
                }
            }
            previous = byte
            index = next
        }
        return true
    }

    /// Only a prepended mark (Grapheme_Cluster_Break=Prepend, none below U+0600) joins the
    /// separator after it; the grapheme rules are asked for anything from U+0600 on.
    private static func mayJoin(before index: String.Index, in text: String) -> Bool {
        text.unicodeScalars[text.unicodeScalars.index(before: index)].value >= 0x600
    }

    /// Only an extending scalar (a mark, an emoji modifier, the zero-width joiner, and Thai and
    /// Lao AM, spacing marks filed as letters) joins the separator before it; the grapheme
    /// rules are asked for those.
    private static func mayJoin(after index: String.Index, in text: String) -> Bool {
        let scalar = text.unicodeScalars[index]
        if scalar.value == 0x0E33 || scalar.value == 0x0EB3 { return true }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return properties.isGraphemeExtend || properties.isEmojiModifier || scalar.value == 0x200D
        }
    }

    /// `index(after:)` rounds a position inside a Character down to its start.
    private static func isCharacterBoundary(_ index: String.Index, in text: String) -> Bool {
        text.index(before: text.index(after: index)) == index
    }

    /// One paragraph's line being filled, word by word. Lengths are running counts: asking
    /// `String.count` for every word made a long screen quadratic.
    private struct LineLayout {
        var prefix: String
        var used: Int
        var line = ""

        init(prefix: String) {
            self.prefix = prefix
            used = prefix.count
        }

        mutating func add(_ word: Substring, width: Int, indent: String, indentCount: Int, into lines: inout [String]) {
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
    }

    /// Wraps a line whose spacing matters (the help table): breaks at the last space that keeps
    /// the line within `width`; continuation lines start with `indent`. A line that fits is kept
    /// as it is.
    package static func wrapKeepingSpaces(_ line: String, width: Int, indent: String) -> [String] {
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
