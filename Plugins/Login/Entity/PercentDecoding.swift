import DenKit

/// `%XX` escapes decoded as Foundation's `removingPercentEncoding` does — nil when an escape is
/// malformed or the bytes are not UTF-8 — for Login, which imports FoundationEssentials only.
enum PercentDecoding {
    static func decode<Text: StringProtocol>(_ text: Text) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(HexDigit.value), let low = iterator.next().flatMap(HexDigit.value) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
