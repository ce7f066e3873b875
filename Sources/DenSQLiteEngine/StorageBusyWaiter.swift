import DenLibraryContracts
import Foundation
import GRDB
import Synchronization

/// Someone is waiting for the database: told once a wait passes `StorageBusyWaiter.noticeAfter`,
/// so a user whose screen seems frozen learns why long before den gives up.
public struct StorageWait: Sendable, CustomStringConvertible {
    /// The database file den is waiting for.
    public let file: URL
    /// "process 4242 (sqlite3)" for each other process holding a write lock on it, when known.
    public let holders: [String]
    /// How long den waits in all before it gives up with an error.
    public let limit: Duration

    public var description: String {
        let who = holders.isEmpty ? "another process" : holders.joined(separator: ", ")
        let seconds = Int(limit.components.seconds)
        return "storage: waiting for \(who), which holds the write lock on \(file.path); "
            + "den gives up after \(seconds) s (stop or finish that process to go on now)"
    }
}

/// SQLite's busy handler for den's connection. SQLite's own `busy_timeout` waits in silence;
/// this one sleeps in short steps, reports the wait once through `report`, and gives up at `limit`.
///
/// SQLite calls it on the connection's own thread with `numberOfTries` counting from 0 for each
/// new wait; den's one writing connection means one wait at a time (the mutex is for Swift's
/// checker; the read connections wait in SQLite's own silence, `StorageOpening.openReader`).
final class StorageBusyWaiter: Sendable {
    static let noticeAfter: Duration = .milliseconds(500)
    static let step: Duration = .milliseconds(10)

    let file: URL
    let limit: Duration
    private let report: @Sendable (StorageWait) -> Void
    private let state = Mutex<(started: ContinuousClock.Instant, reported: Bool)>((.now, false))

    init(file: URL, limit: Duration, report: @escaping @Sendable (StorageWait) -> Void) {
        self.file = file
        self.limit = limit
        self.report = report
    }

    var busyMode: Database.BusyMode {
        .callback { [self] tries in shouldRetry(tries) }
    }

    /// Returns whether SQLite should try again (after this call has slept one step).
    func shouldRetry(_ numberOfTries: Int) -> Bool {
        let now = ContinuousClock.now
        let tellNow: Bool = state.withLock { state in
            if numberOfTries == 0 { state = (now, false) }
            guard !state.reported, now - state.started >= Self.noticeAfter else { return false }
            state.reported = true
            return true
        }
        let elapsed = state.withLock { now - $0.started }
        guard elapsed < limit else { return false }
        if tellNow { report(StorageWait(file: file, holders: StorageLockHolders.find(file), limit: limit)) }
        Thread.sleep(forTimeInterval: Double(Self.step.components.attoseconds) / 1e18)
        return true
    }
}

/// The other processes holding a write lock on a database, read from `/proc/locks` (Linux).
/// SQLite takes POSIX locks on the database file (rollback journal) or its `-shm` file (WAL);
/// a WRITE lock there means a writer or an exclusive connection.
enum StorageLockHolders {
    static func find(_ file: URL) -> [String] {
        let inodes = Set(["", "-shm", "-wal"].compactMap { inode(file.path + $0) })
        guard !inodes.isEmpty, let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return [] }
        let me = Int(getpid())
        var pids: [Int] = []
        for line in table.split(separator: "\n") {
            // "3: POSIX  ADVISORY  WRITE 21428 fe:00:16261967 120 120"; blocked waiters have "->".
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, !fields.contains("->"), fields[3] == "WRITE",
                  let pid = Int(fields[4]), pid != me, !pids.contains(pid),
                  let inode = fields[5].split(separator: ":").last.flatMap({ UInt64($0) }),
                  inodes.contains(inode) else { continue }
            pids.append(pid)
        }
        return pids.map { pid in
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return name.map { "process \(pid) (\($0))" } ?? "process \(pid)"
        }
    }

    /// " (process 4242 (sqlite3))" for a message, or "" when no holder is known.
    static func describe(_ file: URL) -> String {
        let holders = find(file)
        return holders.isEmpty ? "" : " (\(holders.joined(separator: ", ")))"
    }

    private static func inode(_ path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }
}
