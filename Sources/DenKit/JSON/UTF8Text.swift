#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Strings from bytes that must be valid UTF-8. `String(validating:as:)` runs an unspecialised
/// generic validator, several times slower than the repairing decoder the standard library
/// specialises; this decodes with the latter and refuses the text when it had to repair any.
package enum UTF8Text {
    package static func string(validating bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // ASCII is valid UTF-8 as it stands: most text on the wire and in the caches.
        var ascii = true
        for byte in bytes where byte >= 0x80 { ascii = false; break }
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        var text = String(decoding: bytes, as: UTF8.self)
        let unchanged = text.withUTF8 { decoded in
            decoded.count == bytes.count && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        return unchanged ? text : nil
    }

    package static func string(validating bytes: some Collection<UInt8>) -> String? {
        if let text = bytes.withContiguousStorageIfAvailable({ string(validating: $0) }) { return text }
        return Array(bytes).withUnsafeBufferPointer { string(validating: $0) }
    }
}
