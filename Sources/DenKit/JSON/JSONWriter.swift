#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes JSON byte for byte as `WireFormat`'s JSONEncoder does (sorted keys, slashes not
/// escaped, `\b \t \n \f \r` and `\u00xx` for other control characters, everything else as
/// UTF-8), so a document reads the same whichever side wrote it. Writers of `WireDocument`s
/// give an object's keys in sorted (UTF-8 byte) order themselves; `stringDictionary` sorts.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    /// Whether the next value opens its container (no comma before it).
    private var first = true
    /// Whether a key was just written (its value takes no comma).
    private var afterKey = false

    package init() {
        bytes.reserveCapacity(256)
    }

    package var data: Data { Data(bytes) }

    /// Room for `count` bytes in all, for a document whose size is known roughly: a long list
    /// grown from 256 bytes is copied into fresh memory at every doubling.
    package mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(count)
    }

    private mutating func separate() {
        if afterKey {
            afterKey = false
        } else if !first {
            bytes.append(UInt8(ascii: ","))
        }
        first = false
    }

    package mutating func beginObject() { open(UInt8(ascii: "{")) }
    package mutating func endObject() { close(UInt8(ascii: "}")) }
    package mutating func beginArray() { open(UInt8(ascii: "[")) }
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        first = true
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        first = false
    }

    package mutating func key(_ key: String) {
        separate()
        quoted(key)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    package mutating func string(_ value: String) {
        separate()
        quoted(value)
    }

    package mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite number as Swift prints it (`1764340000.25`), which JSON and JSONDecoder read back
    /// exactly; not the bytes JSONEncoder writes for every value.
    package mutating func double(_ value: Double) {
        separate()
        bytes.append(contentsOf: (value.isFinite ? String(value) : "0").utf8)
    }

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    package mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    // Conveniences for object members.
    package mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    package mutating func member(_ name: String, _ value: Int) {
        key(name)
        int(value)
    }

    package mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// A member only when `value` is set, as `encodeIfPresent` writes it.
    package mutating func member(_ name: String, ifPresent value: String?) {
        if let value { member(name, value) }
    }

    package mutating func member(_ name: String, ifPresent value: Int?) {
        if let value { member(name, value) }
    }

    package mutating func member(_ name: String, strings values: [String]) {
        key(name)
        strings(values)
    }

    /// A member whose value is an array, each element written by `write`.
    package mutating func member<Value>(_ name: String, each values: [Value], _ write: (Value, inout JSONWriter) -> Void) {
        key(name)
        beginArray()
        for value in values { write(value, &self) }
        endArray()
    }

    package mutating func strings(_ values: [String]) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    /// An object of strings, keys in UTF-8 byte order (JSONEncoder's `sortedKeys` order).
    package mutating func stringDictionary(_ dictionary: [String: String]) {
        beginObject()
        for key in dictionary.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            member(key, dictionary[key]!)
        }
        endObject()
    }

    private mutating func quoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most text needs no escape: copied whole rather than byte by byte.
        let plain = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x00..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
