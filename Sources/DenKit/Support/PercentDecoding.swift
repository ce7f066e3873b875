/// `%XX` escapes decoded as Foundation's `removingPercentEncoding` does — nil when an escape is
/// malformed or the bytes are not UTF-8 — for code that imports FoundationEssentials only (Login's
/// routes, the host's file URLs).
package enum PercentDecoding {
    /// Concrete, not generic over `StringProtocol`: a generic call from another module runs
    /// unspecialised, and its first use looks up associated types (≈ 400,000 instructions).
    package static func decode(_ text: Substring) -> String? {
        decode(String(text))
    }

    package static func decode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(HexDigit.value), let low = iterator.next().flatMap(HexDigit.value) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes.withUnsafeBufferPointer { UTF8Text.string(validating: $0) }
    }
}
