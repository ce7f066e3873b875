/// Checks one decoded path segment against a placeholder type. Works on UTF-8 bytes and never
/// allocates, because the trie calls it for every typed candidate while matching.
enum RouteSegmentMatcher {
    static func matches(_ type: RouteParameterType, _ segment: Substring) -> Bool {
        switch type {
        case .int: isInt(segment)
        case .double: isDouble(segment)
        case .uuid: isUUID(segment)
        case .string, .path: !segment.isEmpty
        }
    }

    /// `-?[0-9]+` within `Int64`.
    static func isInt(_ segment: Substring) -> Bool {
        var bytes = segment.utf8.makeIterator()
        guard var byte = bytes.next() else { return false }
        let negative = byte == UInt8(ascii: "-")
        if negative {
            guard let next = bytes.next() else { return false }
            byte = next
        }
        // Accumulate the magnitude; Int64.min's magnitude is one more than Int64.max.
        let limit: UInt64 = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        var magnitude: UInt64 = 0
        while true {
            guard let digit = digitValue(byte) else { return false }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2, sum <= limit else { return false }
            magnitude = sum
            guard let next = bytes.next() else { return true }
            byte = next
        }
    }

    /// `-?[0-9]+(\.[0-9]+)?`, finite.
    static func isDouble(_ segment: Substring) -> Bool {
        let utf8 = segment.utf8
        var index = utf8.startIndex
        if index != utf8.endIndex, utf8[index] == UInt8(ascii: "-") { utf8.formIndex(after: &index) }
        var integerDigits = 0
        var significantIntegerDigits = 0
        while index != utf8.endIndex, let digit = digitValue(utf8[index]) {
            if digit != 0 || significantIntegerDigits > 0 { significantIntegerDigits += 1 }
            integerDigits += 1
            utf8.formIndex(after: &index)
        }
        guard integerDigits > 0 else { return false }
        if index != utf8.endIndex {
            guard utf8[index] == UInt8(ascii: ".") else { return false }
            utf8.formIndex(after: &index)
            var fractionDigits = 0
            while index != utf8.endIndex, digitValue(utf8[index]) != nil {
                fractionDigits += 1
                utf8.formIndex(after: &index)
            }
            guard fractionDigits > 0, index == utf8.endIndex else { return false }
        }
        // Up to 308 integer digits is always below Double.greatestFiniteMagnitude (~1.8e308);
        // only longer numbers need the (allocating) parse to rule out infinity.
        if significantIntegerDigits <= 308 { return true }
        return Double(segment)?.isFinite ?? false
    }

    /// 8-4-4-4-12 hex digits, either case.
    static func isUUID(_ segment: Substring) -> Bool {
        let utf8 = segment.utf8
        guard utf8.count == 36 else { return false }
        var offset = 0
        for byte in utf8 {
            switch offset {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                guard isHexDigit(byte) else { return false }
            }
            offset += 1
        }
        return true
    }

    @inline(__always)
    static func digitValue(_ byte: UInt8) -> UInt8? {
        byte &- UInt8(ascii: "0") < 10 ? byte &- UInt8(ascii: "0") : nil
    }

    @inline(__always)
    static func isHexDigit(_ byte: UInt8) -> Bool {
        hexValue(byte) != nil
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
