import DenKit
import FoundationEssentials

/// The sizes the host accepts from a module (docs/ABI.md, "Limits"). Each is checked before the
/// bytes are parsed, so a module cannot make the host spend seconds and hundreds of MB on them.
package enum WireLimits {
    /// A reply document from `handle` (4 MiB).
    package static let maxReplyBytes = 4 * 1024 * 1024
    /// A host-service request document (4 MiB: a storage value is at most 1 MiB).
    package static let maxServiceRequestBytes = 4 * 1024 * 1024
    /// An error message from a builder or `handle`; longer ones are cut (4 KiB).
    package static let maxErrorMessageBytes = 4 * 1024
    /// How deeply arrays and objects may nest in any document a module sends.
    package static let maxNesting = 64

    /// A size in binary units, as the limits are stated: "812 bytes", "4 KiB", "50 MiB", "4.5 MiB".
    package static func describe(bytes: Int) -> String {
        func amount(_ value: Double, _ unit: String) -> String {
            value == value.rounded() ? "\(Int(value)) \(unit)" : NumberText.fixed(value, places: 1) + " " + unit
        }
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1024 * 1024 { return amount(Double(bytes) / 1024, "KiB") }
        return amount(Double(bytes) / (1024 * 1024), "MiB")
    }

    /// An error message a module sent (`length` bytes, of which `bytes` is the start), as text:
    /// invalid UTF-8 repaired, cut at the limit with a note.
    package static func errorText(_ bytes: Data, length: Int) -> String {
        guard length > maxErrorMessageBytes else { return String(decoding: bytes, as: UTF8.self) }
        // Cutting may split a UTF-8 sequence; decoding repairs it with U+FFFD.
        let kept = String(decoding: bytes.prefix(maxErrorMessageBytes), as: UTF8.self)
        return kept + " … (\(length - maxErrorMessageBytes) more bytes cut: error messages are limited to \(describe(bytes: maxErrorMessageBytes)))"
    }
}

/// One pass over a module's JSON document (strings skipped) before any parser sees it: finds
/// nesting deeper than the limit — so a hostile document is refused for what it is, before a
/// parser recurses into it — and the literal `null`, which no document a module sends may
/// contain (an optional key is left out instead; docs/ABI.md).
package enum JSONPreflight {
    package struct Findings: Equatable {
        package var tooDeep = false
        package var hasNull = false
    }

    /// A module's document read once: JSONReader's tree when it takes the document (nesting is
    /// then within the limit, which is JSONReader's too, and the reader says whether a null was
    /// read), else nil and the bytes scanned, so a refusal names what is wrong. A second pass over
    /// every byte cost ≈ 13 instructions a byte of each reply and manifest.
    package static func read(_ data: Data) -> (parsed: JSONValue?, findings: Findings) {
        var sawNull = false
        guard let parsed = JSONReader.parse(data, sawNull: &sawNull) else { return (nil, scan(data)) }
        return (parsed, Findings(tooDeep: false, hasNull: sawNull))
    }

    package static func scan(_ data: Data, maxNesting: Int = WireLimits.maxNesting) -> Findings {
        data.withUnsafeBytes { raw in
            var findings = Findings()
            var depth = 0, inString = false, escaped = false
            var index = raw.startIndex
            while index < raw.endIndex {
                let byte = raw[index]
                defer { index += 1 }
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > maxNesting {
                        findings.tooDeep = true
                        return findings
                    }
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                case UInt8(ascii: "n"):
                    if raw.endIndex - index >= 4, raw[index + 1] == UInt8(ascii: "u"), raw[index + 2] == UInt8(ascii: "l"),
                       raw[index + 3] == UInt8(ascii: "l") {
                        findings.hasNull = true
                    }
                default: break
                }
            }
            return findings
        }
    }

    /// "<subject> nested more than 64 levels deep…", e.g. subject "the request is".
    package static func tooDeep(_ subject: String) -> String {
        "\(subject) nested more than \(WireLimits.maxNesting) levels deep, the limit for any document"
    }

    /// "<subject> null…", e.g. subject "the request contains".
    package static func holdsNull(_ subject: String) -> String {
        "\(subject) null, which no document a module sends may hold (leave an optional key out instead)"
    }
}
