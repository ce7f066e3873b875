#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A wire document with a hand-written JSON form beside its Codable one. `WireFormat` writes it
/// with `write(to:)` (the same bytes JSONEncoder writes) and reads it with `init(wire:)`, asking
/// JSONDecoder only when that misses, so both forms accept the same documents and every refusal
/// still carries JSONDecoder's message. Specs hold the two forms to each other
/// (`WireDocumentEquivalenceSpec`).
package protocol WireDocument: Codable {
    /// The document, or `JSONMiss` when `value` is not in its plain form.
    init(wire value: JSONValue) throws(JSONMiss)
    func write(to writer: inout JSONWriter)
}

extension WireFormat {
    // Chosen over the Codable overloads wherever the static type is a WireDocument.

    package static func encode<T: WireDocument>(_ value: T) throws -> Data {
        var writer = JSONWriter()
        value.write(to: &writer)
        return writer.data
    }

    package static func decode<T: WireDocument>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: data, parsed: JSONReader.parse(data))
    }

    /// For a caller that parsed `data` already, e.g. to read its version first.
    package static func decode<T: WireDocument>(_ type: T.Type, from data: Data, parsed: JSONValue?) throws -> T {
        if let parsed, let document = try? T(wire: parsed) { return document }
        return try JSONDecoder().decode(type, from: data)
    }
}
