import DenKit

/// Every string on its way into a page passes through here (`HTMLWriter` calls it for every
/// text and attribute value): what a module wrote is what the reader sees, character for
/// character, and it can never become markup. Unlike Plot 0.14, which this target used first,
/// it escapes attribute values and `&` in entities too.
enum HTMLEscaping {
    /// Text content: `&`, `<`, `>` escaped; invisible and control characters made visible.
    static func text(_ text: String) -> String {
        escape(visible(text), quotes: false)
    }

    /// An attribute value (always double-quoted): `&`, `<`, `>`, `"`, `'` escaped. Values that
    /// travel back to the server (input values, option values, names) keep every other
    /// character, so a form posts back exactly what the module sent; only characters no HTML
    /// document may hold become U+FFFD.
    static func attribute(_ value: String) -> String {
        escape(value, quotes: true)
    }

    /// For text meant for eyes (labels, placeholders, banners): control characters other than
    /// line breaks and tabs, bidi overrides and other invisible formatting characters become
    /// U+FFFD, so a module cannot reorder or hide what the reader sees (as `ModuleText` does
    /// for the terminal). The zero-width joiner stays: emoji sequences need it.
    static func visible(_ text: String) -> String {
        // Most text is printable ASCII, or holds nothing to replace: return it as it is.
        if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 || $0 == 0x0A }) { return text }
        if !text.unicodeScalars.contains(where: hidden) { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if scalar == "\r" { continue }
            result.unicodeScalars.append(hidden(scalar) ? "\u{FFFD}" : scalar)
        }
        return result
    }

    /// A scalar `visible` replaces (or, for a carriage return, drops).
    private static func hidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x20..<0x7F: false
        case 0x00..<0x20, 0x7F..<0xA0: true
        default: InvisibleCharacters.hides(scalar)
        }
    }

    private static func escape(_ text: String, quotes: Bool) -> String {
        // Nothing to escape is the common case: return the text without rebuilding it.
        let clean = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"): false
            case UInt8(ascii: "\""), UInt8(ascii: "'"): !quotes
            case 0x09, 0x0A: true
            case 0x00..<0x20: false
            default: true
            }
        }
        if clean { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            case "'" where quotes: result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            // NUL and the other C0 controls are parse errors in HTML (and not XML at all).
            case "\u{0}"..."\u{1F}": result.unicodeScalars.append("\u{FFFD}")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
