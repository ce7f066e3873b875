import DenLibraryContracts
import DenKit
import Foundation
import GRDB
import Synchronization

/// The default `StorageEngine`: one SQLite file, `<dataDirectory>/storage.sqlite`, in WAL mode
/// (other processes' readers and a writer never block each other), through one GRDB connection
/// that writes and three that only read (`readers`: reads never queue behind a commit).
///
/// Creating an engine touches nothing: the folder and the file are created and the database
/// opened on the first call, under a lock, because most runs never use storage and the host must
/// start in milliseconds. A failed opening is not remembered, so a fixed folder works on the next
/// call.
///
/// Telling the truth about the file:
/// - every synced write is checkpointed into `storage.sqlite` a few milliseconds after it commits,
///   off the caller's path (`BackgroundCheckpoint`), and the database is closed at exit
///   (`OpenStorageEngines`), so the one file holds the data;
/// - opening only writes when the file is new (see `StorageOpening`), so a reader never queues
///   behind another process's long write;
/// - a call that waits for another process's lock is reported through `onWait` within half a
///   second (`StorageBusyWaiter`), naming the process when `/proc/locks` tells;
/// - a data folder or file that cannot be written is opened read-only: reads work, and writes
///   fail saying why (`readOnlyReason`);
/// - a full disk is "the disk is full", naming the folder (`StorageFailureText`).
///
/// Keys and values are bound and read as UTF-8 bytes (`CAST(? AS TEXT)` / `CAST(x AS BLOB)`) so
/// a value containing U+0000 survives intact; they are stored as TEXT.
public final class SQLiteStorageEngine: StorageEngine, @unchecked Sendable {
    public static let fileName = "storage.sqlite"
    /// How long a write waits for another process's lock before it fails.
    public static let defaultWaitLimit: Duration = .seconds(10)

    /// The data folder.
    public let directory: URL
    /// The database file inside it.
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }
    let waitLimit: Duration
    var messages: StorageFailureText { StorageFailureText(directory: directory, fileURL: fileURL) }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var database: (any DatabaseWriter)?
    private var readOnly: StorageOpening.ReadOnlyCause?
    /// Read-only connections for the reads, so they never queue behind the writer's commit and
    /// its disk sync (WAL: each reads the last committed state); empty until the writer opened.
    private var readers: [DatabaseQueue] = []
    /// Checkpoints after synced writes on a connection of its own; nil until the writer opened,
    /// or when that connection could not open (the writer then checkpoints after each write).
    private var checkpoint: BackgroundCheckpoint?
    private let nextReader = Atomic<Int>(0)
    /// How many read connections a writable database gets.
    static let readerCount = 3
    // Its own lock: the busy handler reports while `lock` may be held by an opening.
    private let onWait: Mutex<@Sendable (StorageWait) -> Void>

    /// `onWait` hears of a write waiting for another process (default: a line on standard error).
    public init(directory: URL, waitLimit: Duration = SQLiteStorageEngine.defaultWaitLimit,
                onWait: @escaping @Sendable (StorageWait) -> Void = SQLiteStorageEngine.reportToStandardError) {
        self.directory = directory
        self.waitLimit = waitLimit
        self.onWait = Mutex(onWait)
    }

    /// Writes the wait notice to standard error, where it never mixes with a screen on standard output.
    public static let reportToStandardError: @Sendable (StorageWait) -> Void = { wait in
        FileHandle.standardError.write(Data("den: \(wait)\n".utf8))
    }

    /// Sends later wait notices to `report` (the host's log).
    public func reportWaits(to report: @escaping @Sendable (StorageWait) -> Void) {
        onWait.withLock { $0 = report }
    }

    /// The same notices, in words.
    public func reportWaitNotices(to report: @escaping @Sendable (String) -> Void) {
        reportWaits { report("\($0)") }
    }

    /// Opens the database now instead of on first use (e.g. to report a bad data folder early).
    public func open() throws(ServiceFailure) {
        _ = try handle()
    }

    /// Why the database is open read-only ("... is on a read-only file system"), nil when it is
    /// writable or not open yet.
    public var readOnlyReason: String? { lock.withLock { readOnly?.reason } }

    /// Closes the database (SQLite checkpoints and removes the -wal file); the next call opens it again.
    public func close() {
        lock.withLock { closeLocked() }
    }

    /// `close()` unless another thread is using the engine right now (at exit: never wait).
    func closeIfIdle() {
        guard lock.try() else { return }
        defer { lock.unlock() }
        closeLocked()
    }

    private func closeLocked() {
        guard let database else { return }
        // SQLite merges the -wal file into storage.sqlite and deletes it when the last
        // connection closes. No checkpoint of our own here: a TRUNCATE one would wait for another
        // process's writer, and every write was already checkpointed (PASSIVE) after it committed.
        checkpoint?.close()
        checkpoint = nil
        for reader in readers { try? reader.close() }
        readers = []
        try? database.close()
        self.database = nil
        readOnly = nil
    }

    // MARK: StorageEngine

    public func get(namespace: String, key: String) throws(ServiceFailure) -> String? {
        try run("read", read: true, anyConnection: true) { db in
            // Prepared once per connection: den serve reads a session's revision on every request.
            try Data.fetchOne(db.cachedStatement(sql: "SELECT CAST(value AS BLOB) FROM entries WHERE namespace = ? AND key = CAST(? AS TEXT)"),
                              arguments: [namespace, Data(key.utf8)])
                .map { String(decoding: $0, as: UTF8.self) }
        }
    }

    public func set(namespace: String, key: String, value: String) throws(ServiceFailure) {
        try run("write") { db in try Self.set(db, namespace, key, value) }
    }

    public func delete(namespace: String, key: String) throws(ServiceFailure) -> Bool {
        try run("write") { db in try Self.delete(db, namespace, key) }
    }

    public func list(namespace: String, prefix: String) throws(ServiceFailure) -> [StorageEntry] {
        let prefixBytes = Data(prefix.utf8)
        return try run("read", read: true, anyConnection: true) { db in
            // `key >= prefix` lets SQLite seek the primary-key index; the byte comparison does the
            // exact prefix test (LIKE/GLOB would treat % _ * ? specially and fold case).
            try Row.fetchAll(db, sql: """
                SELECT CAST(key AS BLOB), CAST(value AS BLOB) FROM entries
                WHERE namespace = ? AND key >= CAST(? AS TEXT) AND substr(CAST(key AS BLOB), 1, ?) = ?
                ORDER BY key
                """, arguments: [namespace, prefixBytes, prefixBytes.count, prefixBytes])
                .map { row in
                    StorageEntry(key: String(decoding: row[0] as Data? ?? Data(), as: UTF8.self),
                                 value: String(decoding: row[1] as Data? ?? Data(), as: UTF8.self))
                }
        }
    }

    public func apply(namespace: String, operations: [StorageOperation]) throws(ServiceFailure) {
        guard !operations.isEmpty else { return }
        // `write` wraps the closure in one transaction: any error rolls everything back.
        try run("write") { db in
            for operation in operations {
                switch operation {
                case .set(let key, let value): try Self.set(db, namespace, key, value)
                case .delete(let key): _ = try Self.delete(db, namespace, key)
                }
            }
        }
    }

    public func applyUnsynced(namespace: String, operations: [StorageOperation]) throws(ServiceFailure) {
        guard !operations.isEmpty else { return }
        try run("write", synced: false) { db in
            for operation in operations {
                switch operation {
                case .set(let key, let value): try Self.set(db, namespace, key, value)
                case .delete(let key): _ = try Self.delete(db, namespace, key)
                }
            }
        }
    }

    public func applyUnsynced(namespace: String, operations: [StorageOperation], ifKey key: String, holds expected: String) throws(ServiceFailure) -> Bool {
        guard !operations.isEmpty else { return try get(namespace: namespace, key: key) == expected }
        // The read inside the write transaction (IMMEDIATE: the write lock first), so no other
        // writer comes between the check and the write.
        return try run("write", synced: false) { db in
            let stored = try Data.fetchOne(db.cachedStatement(sql: "SELECT CAST(value AS BLOB) FROM entries WHERE namespace = ? AND key = CAST(? AS TEXT)"),
                                           arguments: [namespace, Data(key.utf8)])
            guard let stored, stored == Data(expected.utf8) else { return false }
            for operation in operations {
                switch operation {
                case .set(let key, let value): try Self.set(db, namespace, key, value)
                case .delete(let key): _ = try Self.delete(db, namespace, key)
                }
            }
            return true
        }
    }

    /// SQLite's `data_version`: other connections' commits change it, this one's never do.
    public func foreignChanges() throws(ServiceFailure) -> UInt64? {
        try run("read", read: true) { db in
            UInt64(try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0)
        }
    }

    public func increment(namespace: String, key: String) throws(ServiceFailure) -> Int {
        // One write transaction (GRDB begins writes IMMEDIATE: the write lock is taken before the
        // read, so another process cannot slip in between the read and the write).
        let next = try run("write") { db -> Result<Int, StorageCounterProblem> in
            let stored = try Data.fetchOne(db, sql: "SELECT CAST(value AS BLOB) FROM entries WHERE namespace = ? AND key = CAST(? AS TEXT)",
                                           arguments: [namespace, Data(key.utf8)])
                .map { String(decoding: $0, as: UTF8.self) }
            let next = StorageCounter.next(after: stored, forKey: key)
            if case .success(let value) = next { try Self.set(db, namespace, key, String(value)) }
            return next
        }
        switch next {
        case .success(let value): return value
        case .failure(let problem): throw .invalid("\(problem); nothing was written")
        }
    }

    public func namespaces() throws(ServiceFailure) -> [String] {
        try run("read", read: true) { db in try String.fetchAll(db, sql: "SELECT DISTINCT namespace FROM entries ORDER BY namespace") }
    }

    public func insert(namespace: String, _ insert: StorageInsert) throws(ServiceFailure) -> Int {
        // One write transaction for the counter, the check and the record: any failure rolls
        // back all three.
        let outcome = try run("write") { db -> Result<Int, StorageCounterProblem>? in
            var stored = try Data.fetchOne(db, sql: "SELECT CAST(value AS BLOB) FROM entries WHERE namespace = ? AND key = CAST(? AS TEXT)",
                                           arguments: [namespace, Data(insert.counter.utf8)])
                .map { String(decoding: $0, as: UTF8.self) }
            for _ in 0..<StorageInsert.maxTakenIDs {
                let next = StorageCounter.next(after: stored, forKey: insert.counter)
                guard case .success(let id) = next else { return next }
                stored = String(id)
                guard id > 0 else { continue }
                let taken = try Bool.fetchOne(db, sql: "SELECT 1 FROM entries WHERE namespace = ? AND key = CAST(? AS TEXT)",
                                              arguments: [namespace, Data(insert.key(for: id).utf8)]) ?? false
                guard !taken else { continue }
                try Self.set(db, namespace, insert.counter, String(id))
                try Self.set(db, namespace, insert.key(for: id), insert.value(for: id))
                return .success(id)
            }
            return nil
        }
        return try insert.id(from: outcome)
    }

    public func apply(across operations: [NamespacedOperation]) throws(ServiceFailure) {
        guard !operations.isEmpty else { return }
        try run("write") { db in
            for step in operations {
                switch step.operation {
                case .set(let key, let value): try Self.set(db, step.namespace, key, value)
                case .delete(let key): _ = try Self.delete(db, step.namespace, key)
                }
            }
        }
    }

    // MARK: SQL

    private static func set(_ db: Database, _ namespace: String, _ key: String, _ value: String) throws {
        try db.cachedStatement(sql: """
            INSERT INTO entries (namespace, key, value, updated_at)
            VALUES (?, CAST(? AS TEXT), CAST(? AS TEXT), strftime('%Y-%m-%d %H:%M:%f', 'now'))
            ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """).execute(arguments: [namespace, Data(key.utf8), Data(value.utf8)])
        // The time in GRDB's own text form for a Date, made by SQLite: Foundation's DateFormatter
        // behind a Date argument cost more than the statement itself.
    }

    private static func delete(_ db: Database, _ namespace: String, _ key: String) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM entries WHERE namespace = ? AND key = CAST(? AS TEXT)")
            .execute(arguments: [namespace, Data(key.utf8)])
        return db.changesCount > 0
    }

    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: entries") { db in
            try db.execute(sql: """
                CREATE TABLE entries (
                    namespace TEXT NOT NULL,
                    key TEXT NOT NULL CHECK (key <> ''),
                    value TEXT NOT NULL,
                    updated_at DATETIME NOT NULL,
                    PRIMARY KEY (namespace, key)
                )
                """)
        }
        return migrator
    }()

    // MARK: Running

    /// Runs `body` in a read or in a write transaction; a committed write is checkpointed soon
    /// after, off the caller's path, so `storage.sqlite` holds it (the synced log already does). `anyConnection`: a read that may
    /// go to a read connection (not one that asks about this connection, as `data_version` does). `synced: false` commits with
    /// `synchronous = NORMAL` and leaves the checkpoint to the next synced write (or the close):
    /// the write-ahead log still holds it through a kill of den, not through a power cut.
    func run<T>(_ verb: String, read: Bool = false, synced: Bool = true, anyConnection: Bool = false,
                _ body: (Database) throws -> T) throws(ServiceFailure) -> T {
        let (database, readOnly, readers, checkpoint) = try handle()
        // Made only for a message: building the file's path costs more than a read.
        var action: String { read ? "read \(fileURL.path)" : "save to \(fileURL.path)" }
        switch (read, readOnly) {
        case (false, .diskFull?):
            throw StorageFailureText.diskFull(directory, doing: action, outcome: " Nothing was written.")
        case (false, .notWritable(let reason)?):
            throw .unavailable("storage: could not \(action): den opened it read-only because \(reason). Nothing was written. Make the data folder and \(Self.fileName) writable, or start den with another data folder.")
        default:
            break
        }
        do {
            // Every read here is one SELECT, atomic by itself: no transaction around it (BEGIN,
            // COMMIT and the read-only switch cost each read several statements on the one
            // connection every request of den serve shares).
            if read {
                if anyConnection, !readers.isEmpty {
                    let index = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue % readers.count
                    return try readers[index].unsafeRead(body)
                }
                return try database.unsafeRead(body)
            }
            if !synced {
                return try database.writeWithoutTransaction { db in
                    let setting = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 2
                    try db.execute(sql: "PRAGMA synchronous = NORMAL")
                    defer { try? db.execute(sql: "PRAGMA synchronous = \(setting)") }
                    var value: T?
                    try db.inTransaction(.immediate) {
                        value = try body(db)
                        return .commit
                    }
                    guard let value else { throw ServiceFailure.unavailable("storage: a write returned nothing; nothing was written") }
                    return value
                }
            }
            let value = try database.write(body)
            if let checkpoint {
                checkpoint.request()
            } else {
                _ = try? database.writeWithoutTransaction { try $0.checkpoint(.passive) }
            }
            return value
        } catch let error as ServiceFailure {
            throw error
        } catch {
            throw messages.failure(error, doing: action, writing: !read)
        }
    }

    /// The open database and why it is read-only (nil: writable); opens it on first use.
    func handle() throws(ServiceFailure) -> (any DatabaseWriter, StorageOpening.ReadOnlyCause?, [DatabaseQueue], BackgroundCheckpoint?) {
        lock.lock()
        defer { lock.unlock() }
        if let database { return (database, readOnly, readers, checkpoint) }
        let opening = StorageOpening(directory: directory, fileURL: fileURL, messages: messages,
                                     busy: StorageBusyWaiter(file: fileURL, limit: waitLimit) { [weak self] wait in
                                         self?.onWait.withLock { $0 }(wait)
                                     })
        let (opened, reason) = try opening.open()
        database = opened
        readOnly = reason
        // Read connections only beside a writable one in WAL mode (a read-only opening may be
        // `immutable`, whose one connection is all there is); one that fails to open is left out.
        if reason == nil {
            readers = (0..<Self.readerCount).compactMap { _ in opening.openReader() }
            checkpoint = opening.openCheckpointer().map { BackgroundCheckpoint(connection: $0) }
        }
        OpenStorageEngines.register(self)
        return (opened, reason, readers, checkpoint)
    }
}
