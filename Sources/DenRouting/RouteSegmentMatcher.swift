/// Checks one decoded path segment against a placeholder type. Works on UTF-8 bytes and never
/// allocates (except to rule out infinity for absurdly long numbers), because the trie calls it
/// for every typed candidate while matching.
enum RouteSegmentMatcher {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    @inline(__always)
    static func matches(_ type: RouteParameterType, _ segment: Bytes) -> Bool {
        switch type {
        case .int: isInt(segment)
        case .double: isDouble(segment)
        case .uuid: isUUID(segment)
        case .string, .path: !segment.isEmpty && !isDotSegment(segment)
        }
    }

    /// `.` or `..`: never a valid segment (resolve refuses them; see `MalformedRouteReason.dotSegment`).
    @inline(__always)
    static func isDotSegment(_ segment: Bytes) -> Bool {
        (segment.count == 1 || segment.count == 2) && segment.allSatisfy { $0 == UInt8(ascii: ".") }
    }

    /// `-?[0-9]+` within `Int64`.
    static func isInt(_ segment: Bytes) -> Bool {
        var index = 0
        let negative = segment.first == UInt8(ascii: "-")
        if negative { index = 1 }
        guard index < segment.count else { return false }
        // Accumulate the magnitude; Int64.min's magnitude is one more than Int64.max.
        let limit: UInt64 = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        var magnitude: UInt64 = 0
        while index < segment.count {
            guard let digit = digitValue(segment[index]) else { return false }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2, sum <= limit else { return false }
            magnitude = sum
            index += 1
        }
        return true
    }

    /// `-?[0-9]+(\.[0-9]+)?`, finite.
    static func isDouble(_ segment: Bytes) -> Bool {
        var index = 0
        if segment.first == UInt8(ascii: "-") { index = 1 }
        let integerStart = index
        var firstSignificant: Int?
        while index < segment.count, let digit = digitValue(segment[index]) {
            if digit != 0, firstSignificant == nil { firstSignificant = index }
            index += 1
        }
        let integerEnd = index
        guard integerEnd > integerStart else { return false }
        if index < segment.count {
            guard segment[index] == UInt8(ascii: ".") else { return false }
            index += 1
            let fractionStart = index
            while index < segment.count, digitValue(segment[index]) != nil { index += 1 }
            guard index > fractionStart, index == segment.count else { return false }
        }
        // Up to 308 significant integer digits is always below Double.greatestFiniteMagnitude
        // (~1.8e308); only longer numbers need the (allocating) parse to rule out infinity.
        guard let firstSignificant, integerEnd - firstSignificant > 308 else { return true }
        return Double(String(decoding: segment, as: UTF8.self))?.isFinite ?? false
    }

    /// 8-4-4-4-12 hex digits, either case.
    static func isUUID(_ segment: Bytes) -> Bool {
        guard segment.count == 36 else { return false }
        for index in 0..<36 {
            let byte = segment[index]
            switch index {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                guard RoutePercentEncoding.hexValue(byte) != nil else { return false }
            }
        }
        return true
    }

    @inline(__always)
    static func digitValue(_ byte: UInt8) -> UInt8? {
        let value = byte &- UInt8(ascii: "0")
        return value < 10 ? value : nil
    }
}
