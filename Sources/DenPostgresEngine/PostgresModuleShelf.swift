import DenLibraryContracts
import Logging
import PostgresNIO
import Synchronization

/// The module files the hosts on one database share (`den_module_files`), and the `den_modules`
/// channel that tells them a file changed. `den modules install|remove` publish here; every
/// `den serve` on the database listens and copies what changed into its own modules folder
/// (docs/DEPLOY.md, "Modules across hosts").
public final class PostgresModuleShelf: Sendable {
    public static let channel = "den_modules"

    /// One module's row, without its bytes.
    public struct Entry: Sendable, Equatable {
        public var moduleID: String
        public var fileName: String
        public var version: String
        /// Hex SHA-256 of the bytes as published; empty for a removal.
        public var sha256: String
        public var removed: Bool
        public var publishedBy: String
    }

    public let engine: PostgresStorageEngine
    private let listening = Mutex<Task<Void, Never>?>(nil)

    public init(engine: PostgresStorageEngine) {
        self.engine = engine
    }

    /// Stores `bytes` as module `moduleID`'s file and tells every listening host. Publishing the
    /// bytes already stored changes nothing and sends nothing, so hosts never echo each other.
    /// - Returns: false when the database already held exactly these bytes.
    @discardableResult
    public func publish(moduleID: String, fileName: String, version: String, bytes: [UInt8], by host: String) throws(ServiceFailure) -> Bool {
        let logger = engine.logger, channel = Self.channel
        return try engine.run("publish module '\(moduleID)'", writing: true) { connection in
            try await connection.withTransaction(logger: logger) { connection in
                let rows = try await connection.query("""
                    INSERT INTO den_module_files AS f (module_id, file_name, version, sha256, bytes, removed, published_at, published_by)
                    VALUES (\(moduleID), \(fileName), \(version), encode(sha256(\(ByteBuffer(bytes: bytes))), 'hex'), \(ByteBuffer(bytes: bytes)), false, now(), \(host))
                    ON CONFLICT (module_id) DO UPDATE SET file_name = excluded.file_name, version = excluded.version, sha256 = excluded.sha256,
                        bytes = excluded.bytes, removed = false, published_at = now(), published_by = excluded.published_by
                    WHERE f.removed OR f.sha256 <> excluded.sha256 OR f.file_name <> excluded.file_name
                    RETURNING 1
                    """, logger: logger)
                var changed = false
                for try await _ in rows { changed = true }
                // NOTIFY inside the transaction is delivered at commit, never for a rolled-back row.
                if changed { try await connection.query("SELECT pg_notify(\(channel), \(moduleID))", logger: logger) }
                return changed
            }
        }
    }

    /// Marks module `moduleID` removed (its bytes dropped) and tells every listening host.
    /// - Returns: false when the database held no such module.
    @discardableResult
    public func withdraw(moduleID: String, by host: String) throws(ServiceFailure) -> Bool {
        let logger = engine.logger, channel = Self.channel
        return try engine.run("withdraw module '\(moduleID)'", writing: true) { connection in
            try await connection.withTransaction(logger: logger) { connection in
                let rows = try await connection.query("""
                    UPDATE den_module_files SET removed = true, bytes = NULL, sha256 = '', published_at = now(), published_by = \(host)
                    WHERE module_id = \(moduleID) AND NOT removed RETURNING 1
                    """, logger: logger)
                var changed = false
                for try await _ in rows { changed = true }
                if changed { try await connection.query("SELECT pg_notify(\(channel), \(moduleID))", logger: logger) }
                return changed
            }
        }
    }

    /// Every module row, removals included.
    public func entries() throws(ServiceFailure) -> [Entry] {
        let logger = engine.logger
        return try engine.run("list shared modules", writing: false) { connection in
            let rows = try await connection.query(
                "SELECT module_id, file_name, version, sha256, removed, published_by FROM den_module_files ORDER BY module_id", logger: logger)
            var entries: [Entry] = []
            for try await (id, file, version, sha, removed, by) in rows.decode((String, String, String, String, Bool, String).self) {
                entries.append(Entry(moduleID: id, fileName: file, version: version, sha256: sha, removed: removed, publishedBy: by))
            }
            return entries
        }
    }

    /// Module `moduleID`'s bytes, when they are still the ones published as `sha256`; and whether
    /// they hash to it (a row edited by hand, or damaged, does not).
    public func bytes(moduleID: String, sha256: String) throws(ServiceFailure) -> (bytes: [UInt8], matches: Bool)? {
        let logger = engine.logger
        return try engine.run("read module '\(moduleID)'", writing: false) { connection in
            let rows = try await connection.query("""
                SELECT bytes, encode(sha256(bytes), 'hex') = sha256 FROM den_module_files
                WHERE module_id = \(moduleID) AND sha256 = \(sha256) AND bytes IS NOT NULL
                """, logger: logger)
            for try await (buffer, matches) in rows.decode((ByteBuffer, Bool).self) {
                return (Array(buffer.readableBytesView), matches)
            }
            return nil
        }
    }

    /// Listens on `den_modules` on a connection of its own and calls `changed` for every
    /// notification, and once each time listening (re)starts, since notifications sent while
    /// nobody listened are lost. A lost connection is retried every `retry`; `trouble` hears why.
    public func listen(retry: Duration = .seconds(2), trouble: @escaping @Sendable (String) -> Void,
                       changed: @escaping @Sendable () -> Void) {
        let engine = self.engine, channel = Self.channel
        let task = Task(executorPreference: engine.threads) {
            var reported = false
            while !Task.isCancelled {
                do {
                    let configuration = try engine.location.connectionConfiguration()
                    let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: engine.logger)
                    defer { Task { try? await connection.close() } }
                    try await connection.listen(on: channel) { notifications in
                        if reported { trouble("listening for module changes on \(engine.location) again") }
                        reported = false
                        changed()
                        for try await _ in notifications { changed() }
                    }
                } catch {
                    if !reported, !Task.isCancelled {
                        trouble("cannot listen for module changes on \(engine.location) (\(PostgresFailureText.cause(error))); den tries again every \(retry) and checks the shared modules on its timer meanwhile")
                        reported = true
                    }
                }
                try? await Task.sleep(for: retry)
            }
        }
        listening.withLock { $0?.cancel(); $0 = task }
    }

    public func stopListening() {
        listening.withLock { $0?.cancel(); $0 = nil }
    }
}
