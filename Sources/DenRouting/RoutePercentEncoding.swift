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

    /// Decodes one component (a query key or value): `%XX` escapes, and `+` as a space when
    /// `plusIsSpace`. Components without either are turned into a String directly.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool, allowControlCharacters: Bool
    ) -> Result<String, DecodingFailure> {
        var needsWork = false
        for byte in bytes where byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+")) {
            needsWork = true
            break
        }
        // Undecoded bytes come from a Swift String, so they are valid UTF-8 already.
        guard needsWork else { return .success(String(decoding: bytes, as: UTF8.self)) }

        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { output in
            var written = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count,
                          let high = RoutePercentEncoding.hexValue(bytes[index + 1]),
                          let low = RoutePercentEncoding.hexValue(bytes[index + 2])
                    else {
                        let end = min(index + 3, bytes.count)
                        return .failure(.badEscape(String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)))
                    }
                    output[written] = high << 4 | low
                    index += 3
                } else {
                    output[written] = plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte
                    index += 1
                }
                written += 1
            }
            // Validate before building the String: String(decoding:) would silently repair bad bytes.
            let decoded = UnsafeBufferPointer(rebasing: output[0..<written])
            if let failure = validate(decoded, allowControlCharacters: allowControlCharacters) { return .failure(failure) }
            return .success(String(decoding: decoded, as: UTF8.self))
        }
    }

    /// The value of an ASCII hex digit, nil for any other byte. The router's own: it depends on nothing.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        if byte &- UInt8(ascii: "0") < 10 { return byte &- UInt8(ascii: "0") }
        let lowered = byte | 0x20 // ASCII letters' case bit
        if lowered &- UInt8(ascii: "a") < 6 { return lowered &- UInt8(ascii: "a") &+ 10 }
        return nil
    }

    /// Checks that decoded bytes are UTF-8 (and, unless allowed, free of control characters).
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>, allowControlCharacters: Bool) -> DecodingFailure? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if !allowControlCharacters, isControl(scalar) { return .controlCharacter(scalar) }
            case .emptyInput:
                return nil
            case .error:
                return .invalidUTF8
            }
        }
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
