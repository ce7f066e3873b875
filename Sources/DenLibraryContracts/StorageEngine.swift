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
    /// Stores a record under a fresh id in one atomic step (`StorageInsert`) and returns the id.
    /// Increments `insert.counter` until `insert.prefix` + the id names no key, at most
    /// `StorageInsert.maxTakenIDs` times; a failure writes nothing, not even the counter.
    func insert(namespace: String, _ insert: StorageInsert) throws(ServiceFailure) -> Int
    /// `apply` for data that must survive den being killed but may lose its last writes to a
    /// power cut or an OS crash: den serve's browser sessions, saved on every request. The engine
    /// need not wait for the disk (SQLite: no sync at commit, no checkpoint; PostgreSQL:
    /// `synchronous_commit` off for the transaction). Still all or nothing, never corrupting.
    func applyUnsynced(namespace: String, operations: [StorageOperation]) throws(ServiceFailure)
    /// `applyUnsynced` only while `key` holds `expected`, checked and applied in one atomic step
    /// (a compare-and-set); returns whether it applied. den serve saves a browser session this
    /// way, so a save never overwrites a copy another host saved or deleted meanwhile.
    func applyUnsynced(namespace: String, operations: [StorageOperation], ifKey key: String, holds expected: String) throws(ServiceFailure) -> Bool
    /// Reports changes to keys of `namespace` by any process on this database from now on, soon
    /// after each commit, for den to drop what it holds of them: deletions in den's own
    /// namespaces ('@…', such as a browser session logged out on another host), and every
    /// overwrite in the accounts namespace (`@den.auth`: a password changed on another host). Other
    /// writes are not reported. Returns false when nothing can be reported: the engine is one
    /// process's (the default; SQLite), so whatever changes a key is that process itself.
    func watchChanges(in namespace: String, _ report: @escaping @Sendable (StorageChange) -> Void) -> Bool
    /// A number that changes whenever another process commits to this database, and never for
    /// this engine's own commits; cheaper than any read. nil when no other process can write
    /// (the default: an engine in memory). den serve trusts the sessions it holds while it stays.
    func foreignChanges() throws(ServiceFailure) -> UInt64?
    /// Sends each later "waiting for another process's lock" notice to `report`, for the host's
    /// log. A requirement with a do-nothing default rather than a protocol to cast to: a cast
    /// costs a fresh process a scan of every conformance record (docs/PERFORMANCE.md).
    func reportWaitNotices(to report: @escaping @Sendable (String) -> Void)
}

extension StorageEngine {
    /// Engines written before `insert` count, check and write in three steps: each is atomic, so
    /// two callers still never get the same id, but a failed write leaves the counter advanced.
    public func insert(namespace: String, _ insert: StorageInsert) throws(ServiceFailure) -> Int {
        for _ in 0..<StorageInsert.maxTakenIDs {
            let id = try increment(namespace: namespace, key: insert.counter)
            guard id > 0 else { continue }
            guard try get(namespace: namespace, key: insert.key(for: id)) == nil else { continue }
            try apply(namespace: namespace, operations: [.set(key: insert.key(for: id), value: insert.value(for: id))])
            return id
        }
        throw .unavailable("storage: \(StorageInsert.noFreeID(counter: insert.counter)); nothing was written")
    }

    /// An engine with one way to write writes every entry as durably.
    public func applyUnsynced(namespace: String, operations: [StorageOperation]) throws(ServiceFailure) {
        try apply(namespace: namespace, operations: operations)
    }

    /// Engines written before the compare-and-set read and then write: each step is atomic, the
    /// pair is not (another process may write in between).
    public func applyUnsynced(namespace: String, operations: [StorageOperation], ifKey key: String, holds expected: String) throws(ServiceFailure) -> Bool {
        guard try get(namespace: namespace, key: key) == expected else { return false }
        try applyUnsynced(namespace: namespace, operations: operations)
        return true
    }

    /// One process's engine: nothing else writes.
    public func foreignChanges() throws(ServiceFailure) -> UInt64? { nil }

    /// One process's engine: nothing else changes its keys.
    public func watchChanges(in namespace: String, _ report: @escaping @Sendable (StorageChange) -> Void) -> Bool { false }

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

extension StorageInsert {
    /// What an engine's insert loop found, as every engine answers it: the new id; the counter's
    /// problem (its text is not a whole number); or nil, no free id within `maxTakenIDs`.
    public func id(from outcome: Result<Int, StorageCounterProblem>?) throws(ServiceFailure) -> Int {
        switch outcome {
        case .success(let id): return id
        case .failure(let problem): throw .invalid("\(problem); nothing was written")
        case nil: throw .unavailable("storage: \(Self.noFreeID(counter: counter)); nothing was written")
        }
    }
}

/// What `StorageEngine.watchChanges` reports.
public enum StorageChange: Sendable, Equatable {
    /// Reports start, or start again after they stopped: changes before now may have gone
    /// unreported, so whatever was held of the namespace is to be checked again.
    case watching
    /// Reports stopped (the connection that carries them was lost); `watching` follows when they
    /// resume. Meanwhile nothing held may be trusted without reading it.
    case stopped
    /// A key of the namespace was deleted (or, in `@den.auth`, overwritten).
    case changed(String)
}
