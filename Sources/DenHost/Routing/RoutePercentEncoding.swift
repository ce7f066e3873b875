/// Percent-decoding for route segments and query components, and the matching encoder for
/// URL generation. Decoding validates as it goes so a bad route becomes a precise error.
enum RoutePercentEncoding {
    enum DecodingFailure: Error, Equatable {
        /// `%` not followed by two hex digits; the associated text is what followed, e.g. `%zz`.
        case badEscape(String)
        /// The decoded bytes are not UTF-8.
        case invalidUTF8
        /// A decoded control character (only reported when the caller refuses them).
        case controlCharacter(Unicode.Scalar)
    }

    /// Decodes `%XX` escapes (and `+` as a space when `plusIsSpace`). Text without any escape is
    /// returned as is, without copying.
    static func decode(
        _ text: Substring, plusIsSpace: Bool, allowControlCharacters: Bool
    ) -> Result<Substring, DecodingFailure> {
        let utf8 = text.utf8
        var needsWork = false
        for byte in utf8 where byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+")) {
            needsWork = true
            break
        }
        guard needsWork else { return .success(text) }

        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                let second = first == utf8.endIndex ? first : utf8.index(after: first)
                guard second != utf8.endIndex,
                      let high = RouteSegmentMatcher.hexValue(utf8[first]),
                      let low = RouteSegmentMatcher.hexValue(utf8[second])
                else {
                    return .failure(.badEscape(String(text[index...].prefix(3))))
                }
                bytes.append(high << 4 | low)
                index = utf8.index(after: second)
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                utf8.formIndex(after: &index)
            }
        }

        // Validate before building the String: String(decoding:) would silently repair bad bytes.
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if !allowControlCharacters, isControl(scalar) { return .failure(.controlCharacter(scalar)) }
            case .emptyInput:
                break decoding
            case .error:
                return .failure(.invalidUTF8)
            }
        }
        return .success(Substring(String(decoding: bytes, as: UTF8.self)))
    }

    /// C0 controls, DEL and C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Percent-encodes every byte outside RFC 3986 "unreserved" (`A-Z a-z 0-9 - . _ ~`); with
    /// `keepSubDelimiters`, also keeps `! $ & ' ( ) * + , ; = : @` (safe inside a path segment).
    static func encode(_ text: String, keepSubDelimiters: Bool = false) -> String {
        let utf8 = text.utf8
        if utf8.allSatisfy({ isKept($0, keepSubDelimiters) }) { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in utf8 {
            if isKept(byte, keepSubDelimiters) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isKept(_ byte: UInt8, _ keepSubDelimiters: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
            return keepSubDelimiters
        default:
            return false
        }
    }
}
