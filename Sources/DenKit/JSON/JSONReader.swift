#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Parses JSON (RFC 8259) into a `JSONValue`, or gives nil for anything it does not take:
/// malformed JSON, invalid UTF-8, a lone surrogate escape, nesting deeper than `maximumDepth`. Nil is never an answer on its own — callers then ask JSONDecoder, so a
/// document this reader refuses is refused (or read) exactly as before, with the same message.
package enum JSONReader {
    /// Deeper documents are left to JSONDecoder; a wire document is a few levels deep.
    package static let maximumDepth = 64
    /// Larger documents are left to JSONDecoder too. The tree costs up to ≈ 35 bytes of memory
    /// per byte read (`[[1],[1],…]`; `[{"a":1},…]` ≈ 6, measured by resident size); bounded
    /// here, a module's 4 MiB reply cannot make it hundreds of MB.
    package static let maximumBytes = 1 << 20
    /// At most this many members' room is made for an object before its members are read: a
    /// large object must not make every object after it (each level of a nest opens before any
    /// closes) take room for as many members as it had.
    package static let objectRoom = 8

    package static func parse(_ data: Data) -> JSONValue? {
        data.withUnsafeBytes { parse($0) }
    }

    package static func parse(_ bytes: [UInt8]) -> JSONValue? {
        bytes.withUnsafeBytes { parse($0) }
    }

    package static func parse(_ bytes: UnsafeRawBufferPointer) -> JSONValue? {
        var sawNull = false
        return parse(bytes, sawNull: &sawNull)
    }

    /// The same, saying whether the document holds a `null` (the host refuses those from
    /// modules), so a document read here needs no separate pass for it. `sawNull` means
    /// something only when the document is read (not nil).
    package static func parse(_ data: Data, sawNull: inout Bool) -> JSONValue? {
        data.withUnsafeBytes { parse($0, sawNull: &sawNull) }
    }

    package static func parse(_ bytes: UnsafeRawBufferPointer, sawNull: inout Bool) -> JSONValue? {
        guard bytes.count <= maximumBytes else { return nil }
        var parser = Parser(bytes: bytes.assumingMemoryBound(to: UInt8.self))
        parser.skipWhitespace()
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipWhitespace()
        sawNull = parser.sawNull
        return parser.index == parser.bytes.count ? value : nil
    }
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Whether a `null` was read.
    var sawNull = false
    /// How many members the last object read had: the next one, often its sibling of the same
    /// shape, gets room for as many at once, up to `JSONReader.objectRoom`.
    private var lastObjectSize = JSONReader.objectRoom

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        // Locals, not `self`'s fields: the loop then keeps them in registers.
        let bytes = bytes
        var index = index
        defer { self.index = index }
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) -> JSONValue? {
        guard let byte = current else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return depth < JSONReader.maximumDepth ? object(depth: depth + 1) : nil
        case UInt8(ascii: "["): return depth < JSONReader.maximumDepth ? array(depth: depth + 1) : nil
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"):
            guard literal("null") else { return nil }
            sawNull = true
            return .null
        default: return number()
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    private mutating func object(depth: Int) -> JSONValue? {
        index += 1 // {
        var object = JSONObject()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        // Room for the object at once: growing 1, 2, 4, 8 reallocated and copied the members
        // three times over.
        object.members.reserveCapacity(min(lastObjectSize, JSONReader.objectRoom))
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            guard let value = value(depth: depth) else { return nil }
            // A repeated key is kept: lookups find its first value, as JSONDecoder does.
            object.members.append(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                lastObjectSize = object.members.count
                return .object(object)
            default: return nil
            }
        }
    }

    private mutating func array(depth: Int) -> JSONValue? {
        index += 1 // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        elements.reserveCapacity(4)
        while true {
            skipWhitespace()
            guard let element = value(depth: depth) else { return nil }
            elements.append(element)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: return nil
            }
        }
    }

    /// A string starting at its opening quote. Raw control characters are not JSON.
    private mutating func string() -> String? {
        let bytes = bytes // locals, not `self`'s fields: the loop keeps them in registers
        let start = index + 1 // after the "
        var end = start
        var ascii = true
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
                // ASCII is valid UTF-8 as it stands; only other text needs checking.
                let text = ascii ? String(decoding: slice, as: UTF8.self) : UTF8Text.string(validating: slice)
                index = end + 1
                return text
            }
            if byte >= 0x80 { ascii = false }
            if byte == UInt8(ascii: "\\") {
                index = end
                return escapedString(from: start)
            }
            if byte < 0x20 { return nil }
            end += 1
        }
        return nil
    }

    /// The rest of a string that holds an escape: decoded into bytes, then validated.
    private mutating func escapedString(from start: Int) -> String? {
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return decoded.withUnsafeBufferPointer { UTF8Text.string(validating: $0) }
            case UInt8(ascii: "\\"):
                guard let escaped = current else { return nil }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escaped)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    decoded.append(contentsOf: UTF8.encode(scalar)!)
                default: return nil
                }
            default:
                if byte < 0x20 { return nil }
                decoded.append(byte)
            }
        }
        return nil
    }

    /// The scalar of `\uXXXX` (after the `u`), joining a surrogate pair; nil for a lone surrogate.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hexQuad() else { return nil }
        switch high {
        case 0xD800...0xDBFF:
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
            index += 2
            guard let low = hexQuad(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        case 0xDC00...0xDFFF:
            return nil
        default:
            return Unicode.Scalar(high)
        }
    }

    private mutating func hexQuad() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; whole numbers that fit become `.integer`.
    private mutating func number() -> JSONValue? {
        let start = index
        let negative = current == UInt8(ascii: "-")
        if negative { index += 1 }
        guard let first = current, isDigit(first) else { return nil }
        var whole = 0
        var fits = true
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let byte = current, isDigit(byte) {
                // Accumulated negatively, so Int.min fits.
                let (times, overflowA) = whole.multipliedReportingOverflow(by: 10)
                let (next, overflowB) = times.subtractingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                if overflowA || overflowB { fits = false } else { whole = next }
                index += 1
            }
        }
        var isWhole = true
        if current == UInt8(ascii: ".") {
            isWhole = false
            index += 1
            guard digits() else { return nil }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isWhole = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() else { return nil }
        }
        if isWhole && fits {
            if negative { return .integer(whole) }
            guard whole != Int.min else { return .number(text(from: start)) }
            return .integer(-whole)
        }
        return .number(text(from: start))
    }

    private mutating func digits() -> Bool {
        let start = index
        while let byte = current, isDigit(byte) { index += 1 }
        return index > start
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func text(from start: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }
}
