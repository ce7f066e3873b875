import DenLibraryContracts
import Logging
import PostgresNIO

/// den's tables in PostgreSQL and their version. `den_schema` holds one row per migration
/// applied; the highest is the database's version. A den finding a version above `current`
/// refuses the database (a newer den migrated it; this one would misread it), so a rolling
/// upgrade migrates with the first new host and the old hosts stop writing (docs/DEPLOY.md).
enum PostgresSchema {
    /// The version this den creates and understands.
    static let current = 3

    /// Each version's statements, applied in order in one transaction.
    static let migrations: [(version: Int, statements: [String])] = [
        (1, ["""
            CREATE TABLE den_entries (
                namespace text COLLATE "C" NOT NULL,
                key bytea NOT NULL CHECK (octet_length(key) > 0),
                value bytea NOT NULL,
                updated_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (namespace, key)
            )
            """]),
        // Module files shared by the hosts on this database (docs/DEPLOY.md, "Modules across
        // hosts"): one row per module id; a removal keeps the row, without bytes, so a host that
        // was down when it happened still removes its copy.
        (2, ["""
            CREATE TABLE den_module_files (
                module_id text COLLATE "C" PRIMARY KEY,
                file_name text NOT NULL,
                version text NOT NULL DEFAULT '',
                sha256 text NOT NULL,
                bytes bytea,
                removed boolean NOT NULL DEFAULT false,
                published_at timestamptz NOT NULL DEFAULT now(),
                published_by text NOT NULL DEFAULT ''
            )
            """]),
        // Deletions in den's own namespaces ('@…'), and overwrites of account records, are
        // announced on `den_changes`, whoever writes (a host, `den` on the command line): a host
        // drops what it holds of the key, such as a browser session logged out on another host or
        // an account identity a password change replaced (PostgresChangeWatch).
        (3, ["""
            CREATE FUNCTION den_announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('den_changes', OLD.namespace || chr(9) || convert_from(OLD.key, 'UTF8'));
                RETURN NULL;
            END $$
            """, """
            CREATE TRIGGER den_entries_deleted AFTER DELETE ON den_entries
                FOR EACH ROW WHEN (OLD.namespace LIKE '@%') EXECUTE FUNCTION den_announce_change()
            """, """
            CREATE TRIGGER den_accounts_changed AFTER UPDATE ON den_entries
                FOR EACH ROW WHEN (OLD.namespace = '@den.auth') EXECUTE FUNCTION den_announce_change()
            """]),
    ]

    /// Words every too-new refusal carries (`PostgresStorageEngine.prepare` tells it apart).
    static let tooNewMarker = "is newer than this den"

    /// Brings the database to `current` under an advisory lock (hosts starting together migrate
    /// once), or throws the refusal when it is newer.
    static func migrate(_ connection: PostgresConnection, at location: PostgresLocation, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Int64(0x6465_6E5F_7363_6865)))", logger: logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS den_schema (
                    version integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """, logger: logger)
            let found = try await version(connection, logger: logger)
            if found > current {
                throw ServiceFailure.unavailable("storage: the database \(location) has den schema version \(found), which \(tooNewMarker) (it knows versions up to \(current)): a newer den has upgraded it. Nothing was written. Upgrade this den to the version the other hosts run, or start it on another database.")
            }
            for migration in migrations where migration.version > found {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO den_schema (version) VALUES (\(migration.version))", logger: logger)
            }
        }
    }

    static func version(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        let rows = try await connection.query("SELECT coalesce(max(version), 0) FROM den_schema", logger: logger)
        for try await version in rows.decode(Int.self) { return version }
        return 0
    }
}
