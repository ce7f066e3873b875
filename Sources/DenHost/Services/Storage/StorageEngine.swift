import DenKit
import FoundationEssentials

/// Where `StorageService` keeps its entries: (namespace, key) → value. The namespace is the
/// calling module's id. SQLite is the default (`SQLiteStorageEngine`); a server database can
/// replace it by implementing this protocol.
///
/// Contract for implementations:
/// - keys and values arrive already checked against `StorageLimits` (the service validates),
///   but an engine must still refuse an empty key rather than store it;
/// - `list` returns entries sorted by key in byte-wise UTF-8 order (`StorageEntry.keyPrecedes`);
/// - `apply` is atomic: either every operation is applied or none is;
/// - every method is thread-safe and may block; errors are `ServiceFailure`s whose message says
///   what went wrong and what to do.
public protocol StorageEngine: Sendable {
    func get(namespace: String, key: String) throws(ServiceFailure) -> String?
    func set(namespace: String, key: String, value: String) throws(ServiceFailure)
    /// Returns whether the key existed.
    func delete(namespace: String, key: String) throws(ServiceFailure) -> Bool
    func list(namespace: String, prefix: String) throws(ServiceFailure) -> [StorageEntry]
    /// Applies `operations` in order, all or nothing.
    func apply(namespace: String, operations: [StorageOperation]) throws(ServiceFailure)
    /// Adds 1 to the whole number under `key` (absent: 0), stores and returns it in one atomic
    /// step, also against other processes; a value that is not a whole number is refused with
    /// `StorageCounter`'s message and left as it is.
    func increment(namespace: String, key: String) throws(ServiceFailure) -> Int
    /// Every namespace that holds at least one key (the host's hooks, e.g. deleting a user's
    /// data in every module, walk them).
    func namespaces() throws(ServiceFailure) -> [String]
    /// Applies operations in several namespaces in order, all or nothing: for the host only,
    /// never reachable from a module's `storage.*` call.
    func apply(across operations: [NamespacedOperation]) throws(ServiceFailure)
    /// Sends each later "waiting for another process's lock" notice to `report`, for the host's
    /// log. A requirement with a do-nothing default rather than a protocol to cast to: a cast
    /// costs a fresh process a scan of every conformance record (docs/PERFORMANCE.md).
    func reportWaitNotices(to report: @escaping @Sendable (String) -> Void)
}

extension StorageEngine {
    /// An engine that never waits for another process says nothing.
    public func reportWaitNotices(to report: @escaping @Sendable (String) -> Void) {}

    /// Engines written before `storage.increment` still compile, and refuse it rather than
    /// count with a get and a set that two callers could interleave.
    public func increment(namespace: String, key: String) throws(ServiceFailure) -> Int {
        throw .unavailable("storage.increment: this storage engine (\(Self.self)) cannot increment atomically; nothing was written")
    }
}

/// One storage operation in a named namespace, for `StorageEngine.apply(across:)`.
public struct NamespacedOperation: Codable, Sendable, Hashable {
    public var namespace: String
    public var operation: StorageOperation

    public init(namespace: String, operation: StorageOperation) {
        self.namespace = namespace
        self.operation = operation
    }
}

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

    public func namespaces() throws(ServiceFailure) -> [String] {
        lock.withLock { Set(values.keys.map(\.namespace)).sorted() }
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
