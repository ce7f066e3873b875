import DenKit
import Foundation
import GRDB

/// The default `StorageEngine`: one SQLite file, `<dataDirectory>/storage.sqlite`, opened as a
/// GRDB `DatabasePool` in WAL mode (concurrent readers, one writer).
///
/// Creating an engine touches nothing: the folder and the file are created and the database
/// opened on the first call, under a lock, because most runs never use storage and the host must
/// start in milliseconds. A failed opening is not remembered, so a fixed folder works on the next
/// call.
///
/// Keys and values are bound and read as UTF-8 bytes (`CAST(? AS TEXT)` / `CAST(x AS BLOB)`) so
/// a value containing U+0000 survives intact; they are stored as TEXT.
public final class SQLiteStorageEngine: StorageEngine, @unchecked Sendable {
    public static let fileName = "storage.sqlite"

    /// The data folder.
    public let directory: URL
    /// The database file inside it.
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var pool: DatabasePool?

    public init(directory: URL) {
        self.directory = directory
    }

    /// Opens the database now instead of on first use (e.g. to report a bad data folder early).
    public func open() throws(ServiceFailure) {
        _ = try database()
    }

    /// Closes the database; the next call opens it again.
    public func close() {
        lock.withLock {
            try? pool?.close()
            pool = nil
        }
    }

    // MARK: StorageEngine

    public func get(namespace: String, key: String) throws(ServiceFailure) -> String? {
        try run("read", read: true) { db in
            try Data.fetchOne(db, sql: "SELECT CAST(value AS BLOB) FROM entries WHERE namespace = ? AND key = CAST(? AS TEXT)",
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
        return try run("read", read: true) { db in
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

    // MARK: SQL

    private static func set(_ db: Database, _ namespace: String, _ key: String, _ value: String) throws {
        try db.execute(sql: """
            INSERT INTO entries (namespace, key, value, updated_at)
            VALUES (?, CAST(? AS TEXT), CAST(? AS TEXT), ?)
            ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """, arguments: [namespace, Data(key.utf8), Data(value.utf8), Date()])
    }

    private static func delete(_ db: Database, _ namespace: String, _ key: String) throws -> Bool {
        try db.execute(sql: "DELETE FROM entries WHERE namespace = ? AND key = CAST(? AS TEXT)",
                       arguments: [namespace, Data(key.utf8)])
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

    // MARK: Opening and errors

    private func run<T>(_ verb: String, read: Bool = false, _ body: (Database) throws -> T) throws(ServiceFailure) -> T {
        let pool = try database()
        do {
            return read ? try pool.read(body) : try pool.write(body)
        } catch let error as ServiceFailure {
            throw error
        } catch {
            throw failure(error, doing: "\(verb) \(fileURL.path)")
        }
    }

    private func database() throws(ServiceFailure) -> DatabasePool {
        lock.lock()
        defer { lock.unlock() }
        if let pool { return pool }
        let opened = try openPool()
        pool = opened
        return opened
    }

    private func openPool() throws(ServiceFailure) -> DatabasePool {
        let folder = directory.path
        let advice = "Make the folder writable, or start den with another data folder."
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .unavailable("storage: the data folder \(folder) is a file, not a folder. Move the file away, or start den with another data folder.")
            }
        } else {
            do {
                try files.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw .unavailable("storage: cannot create the data folder \(folder): \(Self.reason(error)). \(advice)")
            }
        }
        guard files.isWritableFile(atPath: folder) else {
            throw .unavailable("storage: the data folder \(folder) is not writable (the database \(Self.fileName) and its journal live there). \(advice)")
        }

        var configuration = Configuration()
        configuration.label = "den.storage"
        configuration.busyMode = .timeout(10)
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: fileURL.path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch {
            throw failure(error, doing: "open \(fileURL.path)")
        }
        return pool
    }

    /// A readable `ServiceFailure` for a SQLite or file error: names the file and what to do.
    private func failure(_ error: any Error, doing action: String) -> ServiceFailure {
        let path = fileURL.path
        guard let error = error as? DatabaseError else {
            return .unavailable("storage: could not \(action): \(Self.reason(error)). Check the data folder \(directory.path).")
        }
        let detail = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return .unavailable("storage: \(path) is not a SQLite database (\(detail)). Move the file aside (den then creates a new one), or start den with another data folder.")
        case .SQLITE_CORRUPT:
            return .unavailable("storage: the database \(path) is damaged (\(detail)). Restore it from a backup or move it aside; den then creates a new one.")
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return .unavailable("storage: could not \(action): the file or its folder is not writable (\(detail)). Make \(directory.path) and the files in it writable, or start den with another data folder.")
        case .SQLITE_FULL:
            return .unavailable("storage: could not \(action): the disk is full (\(detail)). Free some space and try again.")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .unavailable("storage: could not \(action): the database is locked by another process (\(detail)). Stop the other den using \(path), or try again.")
        case .SQLITE_CONSTRAINT:
            return .invalid("storage: could not \(action): \(detail); nothing was written")
        case .SQLITE_IOERR:
            return .unavailable("storage: could not \(action): a disk error occurred (\(detail)). Check the disk and the data folder \(directory.path).")
        default:
            return .unavailable("storage: could not \(action): \(detail). Check the data folder \(directory.path).")
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return (error as NSError).localizedDescription
    }
}
