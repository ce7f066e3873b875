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
            return "\(path(context.codingPath)): expected \(type) (\(context.debugDescription))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): missing \(type) value"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
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
