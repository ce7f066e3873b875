import Foundation

/// The sizes the host accepts from a module (docs/ABI.md, "Limits"). Each is checked before the
/// bytes are parsed, so a module cannot make the host spend seconds and hundreds of MB on them.
public enum WireLimits {
    /// A reply document from `handle` (4 MiB).
    public static let maxReplyBytes = 4 * 1024 * 1024
    /// A host-service request document (4 MiB: a storage value is at most 1 MiB).
    public static let maxServiceRequestBytes = 4 * 1024 * 1024
    /// An error message from a builder or `handle`; longer ones are cut (4 KiB).
    public static let maxErrorMessageBytes = 4 * 1024
    /// How deeply arrays and objects may nest in any document a module sends.
    public static let maxNesting = 64

    /// A size in binary units, as the limits are stated: "812 bytes", "4 KiB", "50 MiB", "4.5 MiB".
    static func describe(bytes: Int) -> String {
        func amount(_ value: Double, _ unit: String) -> String {
            value == value.rounded() ? "\(Int(value)) \(unit)" : String(format: "%.1f", value) + " " + unit
        }
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1024 * 1024 { return amount(Double(bytes) / 1024, "KiB") }
        return amount(Double(bytes) / (1024 * 1024), "MiB")
    }

    /// An error message a module sent, as text: invalid UTF-8 repaired, cut at the limit with a note.
    static func errorText(_ bytes: Data) -> String {
        guard bytes.count > maxErrorMessageBytes else { return String(decoding: bytes, as: UTF8.self) }
        // Cutting may split a UTF-8 sequence; decoding repairs it with U+FFFD.
        let kept = String(decoding: bytes.prefix(maxErrorMessageBytes), as: UTF8.self)
        return kept + " … (\(bytes.count - maxErrorMessageBytes) more bytes cut: error messages are limited to \(describe(bytes: maxErrorMessageBytes)))"
    }
}

/// How deeply a JSON document nests, found by one pass over its bytes (strings skipped), so a
/// hostile document is refused for what it is before a parser recurses into it.
enum JSONNesting {
    /// True when some array or object in `data` sits deeper than `limit` levels.
    static func exceeds(_ limit: Int, in data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var depth = 0, inString = false, escaped = false
            for byte in raw {
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > limit { return true }
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
            }
            return false
        }
    }
}
