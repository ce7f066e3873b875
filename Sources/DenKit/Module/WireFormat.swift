#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON used for every document that crosses the host/module line (docs/ABI.md).
public enum WireFormat {
    /// Version of the event/reply/screen documents this DenKit writes.
    public static let version = 1

    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }

    /// A decoding error as one readable line ("screen.elements[2]: key 'text' missing").
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "document" : String(text.dropFirst(text.hasPrefix(".") ? 1 : 0))
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath)): missing key '\(key.stringValue)'"
        case .typeMismatch(let type, let context):
            // In JSON's words, not Swift's ("Dictionary<String, Any>"): module authors write JSON.
            let found = context.debugDescription.firstRange(of: "but found ").map {
                " but found " + jsonFound(String(context.debugDescription[$0.upperBound...]).replacing(" instead.", with: ""))
            } ?? ""
            return "\(path(context.codingPath)): expected \(jsonKind(type))\(found)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): missing \(type) value"
        case .dataCorrupted(let context):
            // An enum's raw value: "Cannot initialize LogLevel from invalid String value loud".
            if context.debugDescription.hasPrefix("Cannot initialize "),
               let range = context.debugDescription.firstRange(of: " value ") {
                return "\(path(context.codingPath)): '\(context.debugDescription[range.upperBound...])' is not one of the values it takes"
            }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }
}

extension WireFormat {
    /// "a string", "an object"… for a Swift type a decoder expected.
    static func jsonKind(_ type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") { return "an object" }
        if name.hasPrefix("Array") { return "an array" }
        if name == "String" || name == "Substring" { return "a string" }
        if name == "Bool" { return "true or false" }
        if ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"].contains(name) {
            return "a whole number"
        }
        if name == "Double" || name == "Float" { return "a number" }
        return name
    }

    /// The decoder's word for what it found ("number", "a string", "dictionary"), as JSON says it.
    static func jsonFound(_ word: String) -> String {
        switch word {
        case "number": "a number"
        case "string": "a string"
        case "bool", "a bool", "boolean": "true or false"
        case "dictionary", "a dictionary": "an object"
        case "array", "an array": "an array"
        default: word
        }
    }
}

extension KeyedDecodingContainer {
    /// Refuses an event whose `"v"` (1 when absent) is newer than this DenKit understands.
    func checkEventVersion(forKey key: Key) throws {
        let version = try decodeIfPresent(Int.self, forKey: key) ?? 1
        guard version <= WireFormat.version else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "event version \(version) is newer than this module understands (\(WireFormat.version))")
        }
    }
}
