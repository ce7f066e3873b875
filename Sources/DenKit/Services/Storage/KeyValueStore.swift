import Foundation

/// The module's durable key-value store (host service `storage.*`). Keys belong to the calling
/// module: no other module can read or change them. An interactor depends on this protocol; its
/// tests use `InMemoryKeyValueStore` or their own mock.
///
/// Keys are 1...512 bytes of UTF-8 without NUL, values at most 1 MiB (`StorageLimits`).
public protocol KeyValueStore: Sendable {
    /// The value stored under `key`, or nil.
    func get(_ key: String) throws -> String?
    /// Stores `value` under `key`, replacing any previous value.
    func set(_ value: String, forKey key: String) throws
    /// Removes `key`; returns whether it existed.
    @discardableResult func delete(_ key: String) throws -> Bool
    /// The entries whose key starts with `prefix` ("" for all), sorted by key (byte-wise UTF-8).
    func list(prefix: String) throws -> [StorageEntry]
    /// Applies `operations` in order, all or nothing.
    func transaction(_ operations: [StorageOperation]) throws
}

extension KeyValueStore {
    /// Every entry of the module, sorted by key.
    public func list() throws -> [StorageEntry] {
        try list(prefix: "")
    }
}
