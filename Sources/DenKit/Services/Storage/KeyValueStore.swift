#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    /// Adds 1 to the whole number under `key` (absent: 0), stores it and returns it, atomically:
    /// two callers, even in two processes, never get the same value (`storage.increment`).
    func increment(_ key: String) throws -> Int
    /// Stores `record(id)` under `keyPrefix` + `id` for a fresh `id` from the counter under
    /// `counter` (never handed out before, and naming no stored key), and returns the id. On the
    /// host this is one atomic storage call (`storage.transaction` with `insert`).
    func insert(counter: String, keyPrefix: String, record: (Int) throws -> String) throws -> Int
}

extension KeyValueStore {
    /// Every entry of the module, sorted by key.
    public func list() throws -> [StorageEntry] {
        try list(prefix: "")
    }
}

extension KeyValueStore {
    /// A store that has no atomic insert counts, checks and writes: three calls, each atomic, and
    /// an id that a failed write used is never handed out again.
    public func insert(counter: String, keyPrefix: String, record: (Int) throws -> String) throws -> Int {
        try insertInSteps(counter: counter, keyPrefix: keyPrefix, record: record)
    }

    /// The three-call insert, for stores (and hosts) without an atomic one.
    public func insertInSteps(counter: String, keyPrefix: String, record: (Int) throws -> String) throws -> Int {
        for _ in 0..<StorageInsert.maxTakenIDs {
            let id = try increment(counter)
            guard id > 0 else { continue }
            let key = keyPrefix + String(id)
            guard try get(key) == nil else { continue }
            let value = try record(id)
            try write { batch in batch.set(value, forKey: key) }
            return id
        }
        throw ModuleError.failed(StorageInsert.noFreeID(counter: counter))
    }
}

extension StorageInsert {
    /// Why an insert gave up.
    public static func noFreeID(counter: String) -> String {
        "no free id within \(maxTakenIDs) of the counter '\(counter)': it is behind the stored records (was it reset by hand?); set it to the highest id in use"
    }
}

extension KeyValueStore {
    /// Stores written before `storage.increment` existed still compile; they cannot count
    /// atomically, so they say so rather than pretend with a get and a set.
    public func increment(_ key: String) throws -> Int {
        throw ModuleError.unsupported("\(Self.self) does not implement increment(_:); implement it atomically, or use HostKeyValueStore or InMemoryKeyValueStore")
    }
}
