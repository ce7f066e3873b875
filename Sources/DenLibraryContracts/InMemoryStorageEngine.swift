import DenKit
import DenLibraryContracts
import FoundationEssentials

/// A `StorageEngine` in memory: for tests, and for runs that must leave no file behind.
public final class InMemoryStorageEngine: StorageEngine, @unchecked Sendable {
    private struct Slot: Hashable {
        var namespace: String
        var key: Data // byte-wise identity, as in SQLite
    }

    // Guarded by `lock`.
    private let lock = Lock()
    private var values: [Slot: StorageEntry] = [:]

    public init() {}

    public func get(namespace: String, key: String) throws(ServiceFailure) -> String? {
        lock.withLock { values[Slot(namespace: namespace, key: Data(key.utf8))]?.value }
    }

    public func set(namespace: String, key: String, value: String) throws(ServiceFailure) {
        try apply(namespace: namespace, operations: [.set(key: key, value: value)])
    }

    public func delete(namespace: String, key: String) throws(ServiceFailure) -> Bool {
        lock.withLock { values.removeValue(forKey: Slot(namespace: namespace, key: Data(key.utf8))) != nil }
    }

    public func list(namespace: String, prefix: String) throws(ServiceFailure) -> [StorageEntry] {
        let prefix = Data(prefix.utf8)
        return lock.withLock {
            values.filter { $0.key.namespace == namespace && $0.key.key.starts(with: prefix) }
                .values.sorted { StorageEntry.keyPrecedes($0.key, $1.key) }
        }
    }

    public func apply(namespace: String, operations: [StorageOperation]) throws(ServiceFailure) {
        try apply(across: operations.map { NamespacedOperation(namespace: namespace, operation: $0) })
    }

    public func increment(namespace: String, key: String) throws(ServiceFailure) -> Int {
        guard !key.isEmpty else { throw .invalid("storage: the key is empty; nothing was written") }
        let slot = Slot(namespace: namespace, key: Data(key.utf8))
        let next = lock.withLock {
            let next = StorageCounter.next(after: values[slot]?.value, forKey: key)
            if case .success(let value) = next { values[slot] = StorageEntry(key: key, value: String(value)) }
            return next
        }
        switch next {
        case .success(let value): return value
        case .failure(let problem): throw .invalid("\(problem); nothing was written")
        }
    }

    public func insert(namespace: String, _ insert: StorageInsert) throws(ServiceFailure) -> Int {
        let counter = Slot(namespace: namespace, key: Data(insert.counter.utf8))
        let outcome = lock.withLock { () -> Result<Int, StorageCounterProblem>? in
            var stored = values[counter]?.value
            for _ in 0..<StorageInsert.maxTakenIDs {
                let next = StorageCounter.next(after: stored, forKey: insert.counter)
                guard case .success(let id) = next else { return next }
                stored = String(id)
                guard id > 0 else { continue }
                let slot = Slot(namespace: namespace, key: Data(insert.key(for: id).utf8))
                guard values[slot] == nil else { continue }
                values[counter] = StorageEntry(key: insert.counter, value: String(id))
                values[slot] = StorageEntry(key: insert.key(for: id), value: insert.value(for: id))
                return .success(id)
            }
            return nil
        }
        return try insert.id(from: outcome)
    }

    public func namespaces() throws(ServiceFailure) -> [String] {
        lock.withLock { Set(values.keys.map(\.namespace)).sorted() }
    }

    public func applyUnsynced(namespace: String, operations: [StorageOperation], ifKey key: String, holds expected: String) throws(ServiceFailure) -> Bool {
        if let index = operations.firstIndex(where: { $0.key.isEmpty }) {
            throw .invalid("storage: operations[\(index)] has an empty key; nothing was written")
        }
        return lock.withLock {
            guard values[Slot(namespace: namespace, key: Data(key.utf8))]?.value == expected else { return false }
            for operation in operations {
                switch operation {
                case .set(let key, let value): values[Slot(namespace: namespace, key: Data(key.utf8))] = StorageEntry(key: key, value: value)
                case .delete(let key): values.removeValue(forKey: Slot(namespace: namespace, key: Data(key.utf8)))
                }
            }
            return true
        }
    }

    public func apply(across operations: [NamespacedOperation]) throws(ServiceFailure) {
        // Check everything first, then apply under one lock: all or nothing.
        if let index = operations.firstIndex(where: { $0.operation.key.isEmpty }) {
            throw .invalid("storage: operations[\(index)] has an empty key; nothing was written")
        }
        lock.withLock {
            for step in operations {
                let namespace = step.namespace
                switch step.operation {
                case .set(let key, let value):
                    values[Slot(namespace: namespace, key: Data(key.utf8))] = StorageEntry(key: key, value: value)
                case .delete(let key):
                    values.removeValue(forKey: Slot(namespace: namespace, key: Data(key.utf8)))
                }
            }
        }
    }
}
