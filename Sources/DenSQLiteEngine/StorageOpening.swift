import DenLibraryContracts
import DenKit
import Foundation
import GRDB

/// Opens `storage.sqlite` for `SQLiteStorageEngine`: read-write when the folder and the file can
/// be written, else read-only so saved values can still be read (from a read-only mount, an
/// immutable file, a backup disk, a full disk). Returns the database and why it is read-only
/// (nil: writable).
struct StorageOpening {
    /// Why the database was opened read-only; decides what a refused write says.
    enum ReadOnlyCause: Sendable {
        case notWritable(String)
        case diskFull

        var reason: String {
            switch self {
            case .notWritable(let reason): reason
            case .diskFull: "the disk is full"
            }
        }
    }

    let directory: URL
    let fileURL: URL
    let messages: StorageFailureText
    let busy: StorageBusyWaiter

    private var files: FileManager { .default }

    func open() throws(ServiceFailure) -> (any DatabaseWriter, ReadOnlyCause?) {
        try prepareFolder()
        let exists = files.fileExists(atPath: fileURL.path)
        if let reason = notWritableReason(fileExists: exists) {
            guard exists else {
                throw .unavailable("storage: the data folder \(directory.path) is not writable (the database \(SQLiteStorageEngine.fileName) and its journal live there). Make the folder writable, or start den with another data folder.")
            }
            return (try openReadOnly(because: reason), .notWritable(reason))
        }
        do {
            return (try openWritable(), nil)
        } catch {
            // A full disk leaves no room for the -shm file, and the checks above can miss a
            // lock-down SQLite meets (an ACL, an SELinux label): reading must still work if it can.
            if exists, StorageFailureText.isFull(directory),
               let readable = try? openReadOnly(because: "the disk is full") {
                return (readable, .diskFull)
            }
            if exists, let code = (error as? DatabaseError)?.resultCode,
               [.SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM].contains(code),
               let readable = try? openReadOnly(because: "SQLite could not open it for writing") {
                return (readable, .notWritable("SQLite could not open it for writing"))
            }
            throw messages.failure(error, doing: "open \(fileURL.path)", writing: !exists)
        }
    }

    private func prepareFolder() throws(ServiceFailure) {
        let folder = directory.path
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .unavailable("storage: the data folder \(folder) is a file, not a folder. Move the file away, or start den with another data folder.")
            }
            return
        }
        do {
            // Only its owner may read it: it holds password hashes and every module's data.
            try files.createDirectory(at: directory, withIntermediateDirectories: true,
                                      attributes: [.posixPermissions: 0o700])
        } catch {
            if StorageFailureText.isFull(directory) {
                throw StorageFailureText.diskFull(directory, doing: "create the data folder \(folder)", outcome: "")
            }
            throw .unavailable("storage: cannot create the data folder \(folder): \(StorageFailureText.reason(error)). Make the folder writable, or start den with another data folder.")
        }
    }

    /// Why den cannot write here, in words for a message; nil when it can.
    private func notWritableReason(fileExists: Bool) -> String? {
        var info = statvfs()
        if statvfs(directory.path, &info) == 0, info.f_flag & UInt(ST_RDONLY) != 0 {
            return "the data folder \(directory.path) is on a read-only file system"
        }
        if !files.isWritableFile(atPath: directory.path) {
            return "the data folder \(directory.path) is not writable"
        }
        if fileExists, !files.isWritableFile(atPath: fileURL.path) {
            return "\(fileURL.path) is not writable"
        }
        return nil
    }

    /// One connection in WAL mode. Not a GRDB `DatabasePool`: opening a pool writes to the file
    /// whenever the -wal file is missing or empty (as after every clean quit), so a den that only
    /// wants to read would queue behind another process's long write. Here nothing is written
    /// unless the file is new (journal mode, schema); readers never wait for a writer.
    private func openWritable() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = "den.storage"
        configuration.busyMode = busy.busyMode
        // A new file is its owner's only (SQLite gives the -wal and -shm files the same mode); an
        // existing file keeps the mode its owner chose.
        if !files.fileExists(atPath: fileURL.path) {
            _ = files.createFile(atPath: fileURL.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let queue = try DatabaseQueue(path: fileURL.path, configuration: configuration)
        do {
            let (mode, current) = try queue.read { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try SQLiteStorageEngine.migrator.hasCompletedMigrations(db))
            }
            if mode != "wal" {
                try queue.writeWithoutTransaction { db in _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
            }
            if !current { try SQLiteStorageEngine.migrator.migrate(queue) }
        } catch {
            try? queue.close()
            throw error
        }
        return queue
    }

    /// A read connection beside the open writable one (`SQLiteStorageEngine.readers`): it writes
    /// nothing, and in WAL mode never waits for the writer. nil when it cannot be opened.
    func openReader() -> DatabaseQueue? {
        var configuration = Configuration()
        configuration.label = "den.storage.read"
        configuration.readonly = true
        // SQLite's own silent wait, not the reporting waiter: that one is the writer's, one wait
        // at a time. A WAL reader waits only in rare moments (recovery after a crash).
        configuration.busyMode = .timeout(TimeInterval(busy.limit.components.seconds))
        return try? DatabaseQueue(path: fileURL.path, configuration: configuration)
    }

    /// The connection that checkpoints after writes (`BackgroundCheckpoint`): writable, and
    /// without a busy wait, since a PASSIVE checkpoint never waits for a lock anyway.
    func openCheckpointer() -> DatabaseQueue? {
        var configuration = Configuration()
        configuration.label = "den.storage.checkpoint"
        return try? DatabaseQueue(path: fileURL.path, configuration: configuration)
    }

    /// A read-only connection. SQLite needs the `-shm` file to read a WAL database; when it cannot
    /// make one, `immutable=1` reads the main file alone, which is only right when no `-wal` file
    /// holds changes not yet copied into it (den checkpoints soon after every write, so normally none).
    private func openReadOnly(because reason: String) throws(ServiceFailure) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = "den.storage.readonly"
        configuration.readonly = true
        configuration.busyMode = .timeout(2)
        let path = fileURL.path
        do {
            return try probe(DatabaseQueue(path: path, configuration: configuration))
        } catch {
            let wal = (try? files.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
            guard wal == 0 else {
                throw .unavailable("storage: cannot read \(path): \(reason), and \(path)-wal holds changes not yet merged into it, which SQLite cannot read without writing. Make the data folder writable once (den then merges them), or copy the folder somewhere writable and start den with --data-dir there.")
            }
            do {
                var url = URLComponents(url: fileURL, resolvingAgainstBaseURL: false)
                url?.queryItems = [URLQueryItem(name: "immutable", value: "1")]
                return try probe(DatabaseQueue(path: url?.string ?? path, configuration: configuration))
            } catch {
                throw messages.failure(error, doing: "read \(path) (\(reason))", writing: false)
            }
        }
    }

    /// Reads the schema once, so a file SQLite cannot read fails here and not in the first call.
    private func probe(_ queue: DatabaseQueue) throws -> DatabaseQueue {
        _ = try queue.read { try SQLiteStorageEngine.migrator.hasCompletedMigrations($0) }
        return queue
    }
}
