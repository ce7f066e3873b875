import DenLibraryContracts
import DenKit
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// Turns SQLite and file errors into `ServiceFailure`s that name the file and say what to do.
/// Kept apart from the engine so every message is in one place.
struct StorageFailureText {
    let directory: URL
    let fileURL: URL

    /// A readable failure for `error`, raised while doing `action` ("save to /x/storage.sqlite").
    func failure(_ error: any Error, doing action: String, writing: Bool) -> ServiceFailure {
        let path = fileURL.path
        let outcome = writing ? " Nothing was written." : ""
        // SQLite says "disk I/O error" (SQLITE_IOERR, or CANTOPEN while making the -shm file) when
        // a write hits a full disk in some paths; the free space decides what the user is told.
        if let full = diskFullFailure(error, doing: action, outcome: outcome) { return full }
        guard let error = error as? DatabaseError else {
            return .unavailable("storage: could not \(action): \(Self.reason(error)). Check the data folder \(directory.path).")
        }
        let detail = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return .unavailable("storage: \(path) is not a SQLite database (\(detail)). Move the file aside (den then creates a new one), or start den with another data folder.")
        case .SQLITE_CORRUPT:
            return .unavailable("storage: the database \(path) is damaged (\(detail)). Run `den data check`, then restore it from a backup (`den data backup` makes one) or move it aside; den then creates a new one.")
        case .SQLITE_READONLY:
            return .unavailable("storage: could not \(action): \(path) can only be read (\(detail)): the file or its folder \(directory.path) is read-only.\(outcome) Make them writable, or start den with another data folder.")
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            return .unavailable("storage: could not \(action): the file or its folder is not writable (\(detail)). Make \(directory.path) and the files in it writable, or start den with another data folder.")
        case .SQLITE_FULL:
            return Self.diskFull(directory, doing: action, outcome: outcome)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            let holders = StorageLockHolders.describe(fileURL)
            return .unavailable("storage: could not \(action): another process\(holders) kept the database \(path) locked for longer than den waits (\(detail)).\(outcome) Stop or finish that process, then try again.")
        case .SQLITE_CONSTRAINT:
            return .invalid("storage: could not \(action): \(detail); nothing was written")
        case .SQLITE_IOERR:
            return .unavailable("storage: could not \(action): a disk error occurred (\(detail)).\(outcome) Check the disk and the data folder \(directory.path).")
        default:
            return .unavailable("storage: could not \(action): \(detail). Check the data folder \(directory.path).")
        }
    }

    static func diskFull(_ directory: URL, doing action: String, outcome: String) -> ServiceFailure {
        .unavailable("storage: could not \(action): the disk is full (no space left for the data folder \(directory.path)).\(outcome) Free some space on that disk, or start den with --data-dir on another disk.")
    }

    private func diskFullFailure(_ error: any Error, doing action: String, outcome: String) -> ServiceFailure? {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_FULL: return Self.diskFull(directory, doing: action, outcome: outcome)
            case .SQLITE_IOERR, .SQLITE_CANTOPEN: break
            default: return nil
            }
        }
        return Self.isFull(directory) ? Self.diskFull(directory, doing: action, outcome: outcome) : nil
    }

    /// Whether the file system holding `directory` (or its nearest existing parent) has no room
    /// left: under 64 KiB free (less than a few SQLite pages plus their journal) or no inodes.
    static func isFull(_ directory: URL) -> Bool {
        var folder = directory
        while !FileManager.default.fileExists(atPath: folder.path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        var info = statvfs()
        guard statvfs(folder.path, &info) == 0 else { return false }
        // A pseudo file system (/proc: no blocks at all) or a read-only one (squashfs, ISO: 0
        // free by nature) is not "full": its errors are reported as what they are.
        guard info.f_blocks > 0, info.f_flag & UInt(ST_RDONLY) == 0 else { return false }
        let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
        return free < 64 * 1024 || (info.f_files > 0 && info.f_favail == 0)
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return (error as NSError).localizedDescription
    }
}
