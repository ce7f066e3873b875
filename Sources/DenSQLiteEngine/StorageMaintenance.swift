import DenLibraryContracts
import DenKit
import Foundation
import GRDB

/// What `SQLiteStorageEngine.backup(to:)` wrote.
public struct StorageBackupSummary: Sendable, Equatable {
    public let file: URL
    public let entries: Int
    public let modules: Int
    public let bytes: Int
}

/// What `SQLiteStorageEngine.check()` found.
public struct StorageCheckReport: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// The data folder holds no database yet (nothing was ever saved).
        case noDatabase
        case healthy
        /// SQLite found damage; each line is one of its findings.
        case damaged([String])
    }

    public let file: URL
    public let outcome: Outcome
    public let entries: Int
    public let modules: Int
    public let bytes: Int
}

extension SQLiteStorageEngine {
    /// Copies the database into `destination` with SQLite's online backup: one consistent
    /// snapshot, even while another den writes, in a single self-contained file (rollback
    /// journal, no -wal beside it). Never overwrites a file: it writes `<name>.partial-…` beside
    /// `destination`, checks the copy, then moves it into place.
    public func backup(to destination: URL) throws(ServiceFailure) -> StorageBackupSummary {
        guard FileManager.default.fileExists(atPath: fileURL.path) else {
            throw ServiceFailure(.notFound, "there is nothing to back up: \(directory.path) holds no \(Self.fileName) yet (den creates it when a module first saves something). Check --data-dir or DEN_DATA_DIR.")
        }
        let path = destination.path
        guard !FileManager.default.fileExists(atPath: path) else {
            throw .invalid("\(path) already exists; den never overwrites a file. Name a new file, or move the old one away first.")
        }
        let folder = destination.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .invalid("the folder \(folder.path) does not exist; create it first, or name a file in an existing folder.")
        }
        let partial = folder.appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString.prefix(8))")
        let messages = StorageFailureText(directory: folder, fileURL: partial)
        let (source, _, _, _) = try handle()
        do {
            defer { try? FileManager.default.removeItem(at: partial) }
            // The copy holds password hashes: owner-only like storage.sqlite, from its first
            // byte (SQLite gives its journal the file's mode too), whatever the umask.
            guard FileManager.default.createFile(atPath: partial.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw ServiceFailure.invalid("could not write the backup \(path): its temporary copy \(partial.lastPathComponent) could not be created in \(folder.path); check that you may write files there.")
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: partial.path)
            let copy = try DatabaseQueue(path: partial.path)
            let counts: (entries: Int, modules: Int)
            do {
                try source.backup(to: copy)
                // The source is in WAL mode and so is a page-for-page copy; a backup must be one file.
                try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
                let problems = try copy.read(Self.integrityProblems)
                guard problems.isEmpty else {
                    throw ServiceFailure.unavailable("the copy failed SQLite's integrity check (\(problems.prefix(3).joined(separator: "; "))); \(path) was not written. Run `den data check`.")
                }
                counts = try copy.read(Self.counts)
                try copy.close()
            } catch {
                try? copy.close()
                throw error
            }
            try FileManager.default.moveItem(at: partial, to: destination)
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            return StorageBackupSummary(file: destination, entries: counts.entries, modules: counts.modules, bytes: bytes)
        } catch let failure as ServiceFailure {
            throw failure
        } catch {
            throw messages.failure(error, doing: "write the backup \(path)", writing: true)
        }
    }

    /// Runs SQLite's `integrity_check` on the database (reading only), and counts what it holds.
    /// A file SQLite cannot read as a database at all is reported as damaged, not thrown; other
    /// failures (locked, unreadable folder) are thrown, since nothing could be checked.
    public func check() throws(ServiceFailure) -> StorageCheckReport {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: fileURL.path)[.size] as? NSNumber)?.intValue
        guard let bytes else {
            return StorageCheckReport(file: fileURL, outcome: .noDatabase, entries: 0, modules: 0, bytes: 0)
        }
        do {
            let (database, _, _, _) = try handle()
            let (problems, counts) = try database.read { db in (try Self.integrityProblems(db), try Self.counts(db)) }
            return StorageCheckReport(file: fileURL, outcome: problems.isEmpty ? .healthy : .damaged(problems),
                                      entries: counts.entries, modules: counts.modules, bytes: bytes)
        } catch {
            let code = (error as? DatabaseError)?.resultCode
            if code == .SQLITE_CORRUPT || code == .SQLITE_NOTADB {
                let detail = (error as? DatabaseError)?.message ?? "\(error)"
                return StorageCheckReport(file: fileURL, outcome: .damaged([detail]), entries: 0, modules: 0, bytes: bytes)
            }
            if let failure = error as? ServiceFailure {
                // The engine's opening maps these codes to a message; keep "damaged" an outcome.
                if failure.message.contains("is not a SQLite database") || failure.message.contains("is damaged") {
                    return StorageCheckReport(file: fileURL, outcome: .damaged([failure.message]), entries: 0, modules: 0, bytes: bytes)
                }
                throw failure
            }
            throw messages.failure(error, doing: "check \(fileURL.path)", writing: false)
        }
    }

    static func integrityProblems(_ db: Database) throws -> [String] {
        let lines = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        return lines == ["ok"] ? [] : lines
    }

    static func counts(_ db: Database) throws -> (entries: Int, modules: Int) {
        guard try db.tableExists("entries") else { return (0, 0) }
        let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), COUNT(DISTINCT namespace) FROM entries")
        return (row?[0] ?? 0, row?[1] ?? 0)
    }
}
