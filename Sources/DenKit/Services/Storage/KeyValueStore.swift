import CDenABI
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

/// The operations of one `KeyValueStore.write` block.
public struct StorageBatch: Sendable, Equatable {
    public private(set) var operations: [StorageOperation] = []

    public init() {}

    public mutating func set(_ value: String, forKey key: String) {
        operations.append(.set(key: key, value: value))
    }

    public mutating func delete(_ key: String) {
        operations.append(.delete(key: key))
    }

    /// Stores `value` as JSON (see `KeyValueStore.setJSON`).
    public mutating func setJSON<Value: Encodable>(_ value: Value, forKey key: String) throws {
        set(try StorageJSON.encode(value, forKey: key), forKey: key)
    }
}

extension KeyValueStore {
    /// Every entry of the module, sorted by key.
    public func list() throws -> [StorageEntry] {
        try list(prefix: "")
    }

    /// Collects the operations `body` adds to the batch and applies them all or nothing. Nothing
    /// is written when `body` throws.
    ///
    ///     try store.write { batch in
    ///         batch.set("42", forKey: "jogs/next-id")
    ///         try batch.setJSON(jog, forKey: "jogs/41")
    ///     }
    public func write(_ body: (inout StorageBatch) throws -> Void) throws {
        var batch = StorageBatch()
        try body(&batch)
        guard !batch.operations.isEmpty else { return }
        try transaction(batch.operations)
    }

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

/// `KeyValueStore` over the host's `storage.*` services. Errors are `HostServiceError`s whose
/// message says what was wrong (an oversize value, an unwritable data folder, ...).
public struct HostKeyValueStore: KeyValueStore {
    private let host: HostServices

    public init(_ host: HostServices) {
        self.host = host
    }

    public func get(_ key: String) throws -> String? {
        try host.call(StorageGetRequest.operation, StorageGetRequest(key: key), as: StorageGetAnswer.self).value
    }

    public func set(_ value: String, forKey key: String) throws {
        _ = try host.call(StorageSetRequest.operation, StorageSetRequest(key: key, value: value), as: Empty.self)
    }

    @discardableResult
    public func delete(_ key: String) throws -> Bool {
        try host.call(StorageDeleteRequest.operation, StorageDeleteRequest(key: key), as: StorageDeleteAnswer.self)
            .deleted
    }

    public func list(prefix: String) throws -> [StorageEntry] {
        try host.call(StorageListRequest.operation, StorageListRequest(prefix: prefix), as: StorageListAnswer.self)
            .entries
    }

    public func transaction(_ operations: [StorageOperation]) throws {
        _ = try host.call(StorageTransactionRequest.operation, StorageTransactionRequest(operations: operations),
                          as: Empty.self)
    }
}

/// A `KeyValueStore` in memory, for module tests and previews. It enforces the same limits as
/// the host and throws the same `HostServiceError`s (status `DEN_ERR_INVALID_ARGUMENT`).
public final class InMemoryKeyValueStore: KeyValueStore, @unchecked Sendable {
    // Guarded by `lock`. Keys compare byte-wise, as in SQLite.
    private let lock = NSLock()
    private var values: [Data: StorageEntry]

    public init(_ entries: [String: String] = [:]) {
        values = Dictionary(entries.map { (Data($0.key.utf8), StorageEntry(key: $0.key, value: $0.value)) },
                            uniquingKeysWith: { $1 })
    }

    /// Every entry, sorted by key; handy in assertions.
    public var entries: [StorageEntry] {
        lock.withLock { values.values.sorted { StorageEntry.keyPrecedes($0.key, $1.key) } }
    }

    public func get(_ key: String) throws -> String? {
        try check(StorageGetRequest.operation, StorageLimits.problem(withKey: key))
        return lock.withLock { values[Data(key.utf8)]?.value }
    }

    public func set(_ value: String, forKey key: String) throws {
        try check(StorageSetRequest.operation, StorageLimits.problem(with: .set(key: key, value: value)))
        lock.withLock { values[Data(key.utf8)] = StorageEntry(key: key, value: value) }
    }

    @discardableResult
    public func delete(_ key: String) throws -> Bool {
        try check(StorageDeleteRequest.operation, StorageLimits.problem(withKey: key))
        return lock.withLock { values.removeValue(forKey: Data(key.utf8)) != nil }
    }

    public func list(prefix: String) throws -> [StorageEntry] {
        let prefixBytes = Data(prefix.utf8)
        return lock.withLock {
            values.filter { $0.key.starts(with: prefixBytes) }.values.sorted { StorageEntry.keyPrecedes($0.key, $1.key) }
        }
    }

    public func transaction(_ operations: [StorageOperation]) throws {
        for (index, operation) in operations.enumerated() {
            if let problem = StorageLimits.problem(with: operation) {
                try check(StorageTransactionRequest.operation, "operations[\(index)]: \(problem); nothing was written")
            }
        }
        lock.withLock {
            for operation in operations {
                switch operation {
                case .set(let key, let value): values[Data(key.utf8)] = StorageEntry(key: key, value: value)
                case .delete(let key): values.removeValue(forKey: Data(key.utf8))
                }
            }
        }
    }

    private func check(_ service: String, _ problem: String?) throws {
        if let problem {
            throw HostServiceError(service: service, status: DEN_ERR_INVALID_ARGUMENT.rawValue32, message: problem)
        }
    }
}
