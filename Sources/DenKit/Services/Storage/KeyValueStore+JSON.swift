#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension KeyValueStore {
    /// The value under `key` decoded from JSON, or nil when the key is absent. Throws
    /// `ModuleError.failed` when the stored text is not a `Value`.
    public func getJSON<Value: Decodable>(_ type: Value.Type, forKey key: String) throws -> Value? {
        guard let text = try get(key) else { return nil }
        return try StorageJSON.decode(type, from: text, forKey: key)
    }

    /// Stores `value` under `key` as JSON (sorted keys, dates as seconds since 2001 unless the
    /// type encodes them otherwise).
    public func setJSON<Value: Encodable>(_ value: Value, forKey key: String) throws {
        try set(StorageJSON.encode(value, forKey: key), forKey: key)
    }
}

extension StorageBatch {
    /// Stores `value` as JSON (see `KeyValueStore.setJSON`).
    public mutating func setJSON<Value: Encodable>(_ value: Value, forKey key: String) throws {
        set(try StorageJSON.encode(value, forKey: key), forKey: key)
    }
}

/// JSON for stored values, with errors that name the key.
enum StorageJSON {
    static func encode<Value: Encodable>(_ value: Value, forKey key: String) throws -> String {
        do {
            return String(decoding: try WireFormat.encode(value), as: UTF8.self)
        } catch {
            throw ModuleError.failed("could not encode the value for key '\(key)' as JSON: \(error)")
        }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from text: String, forKey key: String) throws -> Value {
        do {
            return try WireFormat.decode(type, from: Data(text.utf8))
        } catch {
            throw ModuleError.failed(
                "the value stored under key '\(key)' is not a valid \(Value.self): \(WireFormat.describe(error)); "
                    + "overwrite or delete the key")
        }
    }
}
