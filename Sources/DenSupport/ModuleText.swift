import DenKit

/// Text that came from a module (a summary, an id it tried, a log message, a screen string) is
/// untrusted. Every path that prints it — terminal screens, `den plugins`, error messages, log
/// lines — goes through here, so a module can never move the cursor, clear or retitle the user's
/// terminal (ESC, OSC), hide text (bidi overrides), or forge extra log lines (newlines).
package enum ModuleText {
    /// For multi-line places (a screen's text): keeps line breaks, makes every other control
    /// character visible (`^[` for ESC, `^?` for DEL), tabs become four spaces, and C1 controls,
    /// bidi controls and other invisible formatting characters become U+FFFD.
    package static func sanitize(_ text: String) -> String {
        render(text, keepNewlines: true)
    }

    /// For one-line places (a log line, a list row, an error message): like `sanitize`, and line
    /// breaks become a visible `^J`; text longer than `limit` characters is cut with "…".
    package static func singleLine(_ text: String, limit: Int? = nil) -> String {
        let clean = render(text, keepNewlines: false)
        guard let limit, clean.count > limit else { return clean }
        return String(clean.prefix(max(limit - 1, 0))) + "…"
    }

    /// Control characters (C0, DEL, C1), line/paragraph separators, and invisible formatting
    /// characters (bidi controls, zero-width spaces, the BOM) — what can hide or reorder text.
    /// The zero-width joiner stays allowed: emoji sequences need it.
    package static func isInvisibleOrControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0: true
        default: InvisibleCharacters.hides(scalar)
        }
    }

    private static func render(_ text: String, keepNewlines: Bool) -> String {
        // Text with nothing to replace (most text, "1.0.0 — About" too) comes back as it is:
        // looking is cheaper than copying, and looking at bytes cheaper than at scalars.
        if !needsChanges(text, keepNewlines: keepNewlines) { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepNewlines: result.unicodeScalars.append(scalar)
            case 0x09: result += "    "
            case 0x00..<0x20: result += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
            case 0x7F: result += "^?"
            default:
                if isInvisibleOrControl(scalar) { result += "\u{FFFD}" } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }

    /// Whether `render` would change anything, read from the UTF-8: a control byte, or a C1
    /// control or the soft hyphen (both start with 0xC2), or a scalar from U+0600 on that
    /// `isInvisibleOrControl` hides. Anything else below U+0600 is printable.
    private static func needsChanges(_ text: String, keepNewlines: Bool) -> Bool {
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x80 {
                    if byte == 0x0A ? !keepNewlines : (byte < 0x20 || byte == 0x7F) { return true }
                    index += 1
                    continue
                }
                let length = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] < 0xA0 || bytes[index + 1] == 0xAD { return true }
                if byte >= 0xD8 {
                    var value = UInt32(length == 2 ? byte & 0x1F : length == 3 ? byte & 0x0F : byte & 0x07)
                    for offset in 1..<length where index + offset < bytes.count {
                        value = value << 6 | UInt32(bytes[index + offset] & 0x3F)
                    }
                    if let scalar = Unicode.Scalar(value), isInvisibleOrControl(scalar) { return true }
                }
                index += length
            }
            return false
        }
    }
}
