import DenKit
import DenLibraryContracts
import PostgresNIO

/// What `PostgresStorageEngine.check()` found.
public struct PostgresCheckReport: Sendable, Equatable {
    public let schemaVersion: Int
    public let entries: Int
    public let modules: Int
    public let bytes: Int
}

/// What `PostgresStorageEngine.copy(from:replacing:)` copied and checked.
public struct PostgresCopySummary: Sendable, Equatable {
    public let entries: Int
    public let modules: Int
}

extension PostgresStorageEngine {
    /// Connects, brings the schema up to date, and counts what is stored: `den data check`.
    /// PostgreSQL guards its own pages; `pg_amcheck` checks them (docs/DEPLOY.md).
    public func check() throws(ServiceFailure) -> PostgresCheckReport {
        let logger = self.logger
        return try run("read from", writing: false) { connection in
            let version = try await PostgresSchema.version(connection, logger: logger)
            let rows = try await connection.query("""
                SELECT count(*), count(DISTINCT namespace), coalesce(sum(octet_length(key) + octet_length(value)), 0)::bigint FROM den_entries
                """, logger: logger)
            for try await (entries, modules, bytes) in rows.decode((Int, Int, Int).self) {
                return PostgresCheckReport(schemaVersion: version, entries: entries, modules: modules, bytes: bytes)
            }
            return PostgresCheckReport(schemaVersion: version, entries: 0, modules: 0, bytes: 0)
        }
    }

    /// How many entries the database holds (`den data migrate` refuses a non-empty one).
    public func entryCount() throws(ServiceFailure) -> Int {
        try check().entries
    }

    /// Copies every entry of `source` (the SQLite engine of a data folder) in one transaction,
    /// then reads each namespace back and compares. `replacing`: a key already here is
    /// overwritten (else the caller refused a non-empty database first). A failure writes
    /// nothing; a copy that does not read back the same is reported with the first difference.
    /// `progress` hears each step: reading namespace n of m, writing (one transaction), checking
    /// namespace n of m.
    public func copy(from source: any StorageEngine,
                     progress: (PostgresCopyProgress) -> Void = { _ in }) throws(ServiceFailure) -> PostgresCopySummary {
        var operations: [NamespacedOperation] = []
        var expected: [String: [StorageEntry]] = [:]
        let namespaces = try source.namespaces()
        for (index, namespace) in namespaces.enumerated() {
            progress(.reading(done: index, of: namespaces.count))
            let entries = try source.list(namespace: namespace, prefix: "")
            expected[namespace] = entries
            operations += entries.map { NamespacedOperation(namespace: namespace, operation: .set(key: $0.key, value: $0.value)) }
        }
        progress(.writing(entries: operations.count))
        try apply(across: operations)
        for (index, (namespace, entries)) in expected.enumerated() {
            progress(.checking(done: index, of: expected.count))
            let copied = try list(namespace: namespace, prefix: "")
            let byKey = Dictionary(copied.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            if let missing = entries.first(where: { byKey[$0.key] != $0.value }) {
                throw .unavailable("storage: the copy does not read back the same: \(namespace)/\(missing.key) differs in PostgreSQL at \(location). Check the database server, then run den data migrate again with --replace.")
            }
        }
        return PostgresCopySummary(entries: operations.count, modules: expected.count)
    }
}

/// A step of `den data migrate`'s copy, for its progress line.
public enum PostgresCopyProgress: Sendable, Equatable {
    case reading(done: Int, of: Int)
    case writing(entries: Int)
    case checking(done: Int, of: Int)
}
