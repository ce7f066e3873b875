import DenHost
import DenPostgresEngine
import DenSQLiteEngine

/// An engine a command opens for itself and closes when done (`den users`).
protocol ClosableStorageEngine: StorageEngine {
    func close()
}

extension SQLiteStorageEngine: ClosableStorageEngine {}
extension PostgresStorageEngine: ClosableStorageEngine {}

extension DataCommand.Location {
    /// The engine `den users` works on: PostgreSQL when one is named (--database,
    /// DEN_DATABASE_URL, `<data dir>/database-url`), else the data folder's SQLite file.
    func storage() throws -> any ClosableStorageEngine {
        if let postgres = try postgres() { return PostgresStorageEngine(location: postgres) }
        return try engine()
    }
}
