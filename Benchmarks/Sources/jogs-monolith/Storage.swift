import Foundation
import GRDB

/// The monolith's SQLite file, set up as den's `SQLiteStorageEngine` sets up `storage.sqlite`
/// (Sources/DenSQLiteStorage): one GRDB `DatabaseQueue` (a single connection, not a pool), GRDB's
/// default configuration, WAL journal mode, a new file created 0600, a busy wait of up to 10 s,
/// writes in a transaction each and a PASSIVE checkpoint right after every committed write.
/// The difference is the schema: real tables (`users`, `jogs`), as an app written for itself
/// has, instead of den's namespaced key-value `entries`.
struct Storage: Sendable {
    let queue: DatabaseQueue

    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let path = directory.appendingPathComponent("jogs.sqlite").path
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        var configuration = Configuration()
        configuration.label = "jogs.storage"
        configuration.busyMode = .timeout(10)
        queue = try DatabaseQueue(path: path, configuration: configuration)
        let mode = try queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        if mode != "wal" {
            try queue.writeWithoutTransaction { db in _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
        }
        try Self.migrator.migrate(queue)
    }

    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE users (
                    name TEXT PRIMARY KEY NOT NULL,
                    salt BLOB NOT NULL,
                    hash BLOB NOT NULL,
                    n INTEGER NOT NULL, r INTEGER NOT NULL, p INTEGER NOT NULL
                );
                CREATE TABLE jogs (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    user TEXT NOT NULL,
                    date TEXT NOT NULL,
                    distance_m INTEGER NOT NULL,
                    duration_s INTEGER NOT NULL
                );
                CREATE INDEX jogs_by_user_date ON jogs (user, date, id);
                """)
        }
        return migrator
    }()

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await queue.read(body)
    }

    /// One transaction, then the checkpoint den makes after every write (so the main file holds it).
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await queue.writeWithoutTransaction { db in
            var value: T?
            try db.inTransaction {
                value = try body(db)
                return .commit
            }
            _ = try db.checkpoint(.passive)
            return value!
        }
    }

    // MARK: Jogs

    func jogs(of user: String, from: String?, to: String?) async throws -> [Jog] {
        try await read { db in
            var sql = "SELECT id, date, distance_m, duration_s FROM jogs WHERE user = ?"
            var arguments: StatementArguments = [user]
            if let from { sql += " AND date >= ?"; arguments += [from] }
            if let to { sql += " AND date <= ?"; arguments += [to] }
            sql += " ORDER BY date DESC, id DESC"
            return try Jog.fetchAll(db, sql: sql, arguments: arguments)
        }
    }

    func jog(_ id: Int64, of user: String) async throws -> Jog? {
        try await read { db in
            try Jog.fetchOne(db, sql: "SELECT id, date, distance_m, duration_s FROM jogs WHERE id = ? AND user = ?",
                             arguments: [id, user])
        }
    }

    func add(_ input: JogInput, for user: String) async throws -> Int64 {
        try await write { db in
            try db.execute(sql: "INSERT INTO jogs (user, date, distance_m, duration_s) VALUES (?, ?, ?, ?)",
                           arguments: [user, input.date, input.distanceMetres, input.durationSeconds])
            return db.lastInsertedRowID
        }
    }

    func replace(_ id: Int64, with input: JogInput, for user: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE jogs SET date = ?, distance_m = ?, duration_s = ? WHERE id = ? AND user = ?",
                           arguments: [input.date, input.distanceMetres, input.durationSeconds, id, user])
            return db.changesCount > 0
        }
    }

    func delete(_ id: Int64, of user: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM jogs WHERE id = ? AND user = ?", arguments: [id, user])
            return db.changesCount > 0
        }
    }

    // MARK: Users

    func account(_ name: String) async throws -> Account? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT salt, hash, n, r, p FROM users WHERE name = ?", arguments: [name]).map { row in
                Account(salt: row[0], hash: row[1], parameters: ScryptParameters(rounds: row[2], blockSize: row[3], parallelism: row[4]))
            }
        }
    }

    /// False when the name is taken.
    func addAccount(_ name: String, _ account: Account) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO users (name, salt, hash, n, r, p) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [name, account.salt, account.hash, account.parameters.rounds,
                                       account.parameters.blockSize, account.parameters.parallelism])
            return db.changesCount > 0
        }
    }
}

struct Jog: FetchableRecord, Sendable {
    var id: Int64
    var date: String
    var distanceMetres: Int
    var durationSeconds: Int

    init(row: Row) {
        id = row[0]
        date = row[1]
        distanceMetres = row[2]
        durationSeconds = row[3]
    }
}
