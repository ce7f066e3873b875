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

/// One pass over a module's JSON document (strings skipped) before any parser sees it: refuses
/// nesting deeper than the limit — so a hostile document is refused for what it is, before a
/// parser recurses into it — and `null`, which no document a module sends may contain (an
/// optional key is left out instead; docs/ABI.md).
enum JSONPreflight {
    enum Problem: Equatable {
        case tooDeep
        case null
    }

    static func check(_ data: Data, maxNesting: Int = WireLimits.maxNesting) -> Problem? {
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
                    if depth > maxNesting { return .tooDeep }
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                // Outside strings, only the literal null starts with 'n'.
                case UInt8(ascii: "n"): return .null
                default: break
                }
            }
            return nil
        }
    }

    /// The refusal in words, for a document named like "a reply" or "the request".
    static func describe(_ problem: Problem, document: String) -> String {
        switch problem {
        case .tooDeep: "\(document) is nested more than \(WireLimits.maxNesting) levels deep, the limit for any document"
        case .null: "\(document) contains null, which no document a module sends may hold (leave an optional key out instead)"
        }
    }
}
