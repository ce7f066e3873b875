import DenHost
import DenSupport

/// Text helpers of the terminal front-end.
package enum TerminalText {
    /// Module text is untrusted: the host's one sanitiser makes control characters visible.
    package static func sanitize(_ text: String) -> String {
        ModuleText.sanitize(text)
    }

    /// A log or error line for a terminal `width` columns wide: wrapped at word boundaries, as
    /// screens are (the terminal itself would cut words), later lines indented so that one
    /// message still reads as one. Without a width the line is kept whole.
    package static func messageLines(_ line: String, width: Int?) -> String {
        guard let width, width >= 20 else { return line }
        return wrap(line, width: width, indent: "    ").joined(separator: "\n")
    }

    /// Wraps `text` at word boundaries so that no line (indent included) passes `width` columns
    /// unless one word is longer; keeps explicit line breaks. The first line of each paragraph
    /// starts with `firstIndent` (default: `indent`), the others with `indent`.
    package static func wrap(_ text: String, width: Int, indent: String = "", firstIndent: String? = nil) -> [String] {
        let prefix = firstIndent ?? indent
        // A line that fits as it stands (columns never exceed UTF-8 bytes) with no space to
        // collapse and no line break: most lines of a screen, which need no splitting at all.
        if prefix.utf8.count + text.utf8.count <= width, isSingleSpaced(text) { return [prefix + text] }
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
                    let wordCount = ascii ? word.count : characterCount(word)
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

    /// No line break, no space at either end and no two spaces together: wrapping would give
    /// the text back unchanged when it fits.
    static func isSingleSpaced(_ text: String) -> Bool {
        var contiguous = text // `utf8` iteration checks the string's form at every byte
        return contiguous.withUTF8 { bytes in
            var previous: UInt8 = 0x20 // a space at the start is one to collapse
            for byte in bytes {
                if byte == 0x0A || (byte == 0x20 && previous == 0x20) { return false }
                previous = byte
            }
            return previous != 0x20 || bytes.isEmpty
        }
    }

    /// A non-ASCII word's width in Characters; a word of one scalar ("—", "·") is one without
    /// building a String to count.
    private static func characterCount(_ word: UnsafeBufferPointer<UInt8>) -> Int {
        let lead = word[0]
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        return lead >= 0xC0 && word.count == length ? 1 : String(decoding: word, as: UTF8.self).count
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
    /// prepended mark before one, "\r\n"). Only separators next to non-ASCII bytes need asking,
    /// and the scalars there are decoded from the bytes: a String index per byte cost ≈ 100
    /// instructions a byte, for every line of a screen.
    static func breaksAtBytes(_ text: String) -> Bool {
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            var previous: UInt8 = 0
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == 0x0A || byte == 0x20 {
                    if byte == 0x0A, previous == 0x0D { return false }
                    if previous >= 0x80, scalar(endingBefore: index, in: bytes).value >= 0x600,
                       !isCharacterBoundary(utf8Offset: index, in: text) { return false }
                    let next = index + 1
                    if next < bytes.count, bytes[next] >= 0x80, mayJoin(after: scalar(startingAt: next, in: bytes)),
                       !isCharacterBoundary(utf8Offset: next, in: text) { return false }
                }
                previous = byte
            }
            return true
        }
    }

    /// The scalar whose UTF-8 starts at `index` (valid UTF-8: the bytes come from a String).
    private static func scalar(startingAt index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar {
        let lead = bytes[index]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        var value = UInt32(length == 1 ? lead : length == 2 ? lead & 0x1F : length == 3 ? lead & 0x0F : lead & 0x07)
        for offset in 1..<length where index + offset < bytes.count {
            value = value << 6 | UInt32(bytes[index + offset] & 0x3F)
        }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// The scalar whose UTF-8 ends just before `index`.
    private static func scalar(endingBefore index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar {
        var start = index - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return scalar(startingAt: start, in: bytes)
    }

    /// Only an extending scalar (a mark, an emoji modifier, the zero-width joiner, and Thai and
    /// Lao AM, spacing marks filed as letters) joins the separator before it; the grapheme
    /// rules are asked for those. Latin-1 to the spacing modifiers (below U+0300) and the
    /// general punctuation U+2010–U+2027 and U+2030–U+205F hold none: no table look-up for the
    /// "—" and "·" most list rows hold.
    private static func mayJoin(after scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E33, 0x0EB3: return true
        case 0..<0x300, 0x2010...0x2027, 0x2030...0x205F: return false
        default: break
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return properties.isGraphemeExtend || properties.isEmojiModifier || scalar.value == 0x200D
        }
    }

    /// `index(after:)` rounds a position inside a Character down to its start.
    private static func isCharacterBoundary(utf8Offset offset: Int, in text: String) -> Bool {
        let index = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        return text.index(before: text.index(after: index)) == index
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
