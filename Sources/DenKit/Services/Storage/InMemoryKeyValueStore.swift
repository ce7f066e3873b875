import CDenABI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `KeyValueStore` in memory, for module tests and previews. It enforces the same limits as
/// the host and throws the same `HostServiceError`s (status `DEN_ERR_INVALID_ARGUMENT`).
public final class InMemoryKeyValueStore: KeyValueStore, @unchecked Sendable {
    // Guarded by `lock`. Keys compare byte-wise, as in SQLite.
    private let lock = Lock()
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

    public func increment(_ key: String) throws -> Int {
        try check(StorageIncrementRequest.operation, StorageLimits.problem(withKey: key))
        let next: Result<Int, StorageCounterProblem> = lock.withLock {
            let slot = Data(key.utf8)
            let next = StorageCounter.next(after: values[slot]?.value, forKey: key)
            if case .success(let value) = next { values[slot] = StorageEntry(key: key, value: String(value)) }
            return next
        }
        switch next {
        case .success(let value): return value
        case .failure(let problem):
            throw HostServiceError(service: StorageIncrementRequest.operation, status: DEN_ERR_INVALID_ARGUMENT.rawValue32,
                                   message: "\(problem); nothing was written")
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
