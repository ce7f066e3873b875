import Dispatch
import GRDB
import Synchronization

/// Copies the write-ahead log into `storage.sqlite` shortly after a synced write, on a thread and
/// a connection of its own. The commit already synced the log, so the write is durable when the
/// caller returns (a kill -9 loses nothing: SQLite replays the log at the next open); copying it
/// into the main file is a second disk sync that no request needs to wait for. Writes that come
/// close together share one checkpoint.
final class BackgroundCheckpoint: Sendable {
    private struct State {
        var connection: DatabaseQueue?
        var scheduled = false
    }

    private let queue = DispatchQueue(label: "den.storage.checkpoint", qos: .utility)
    private let state: Mutex<State>
    /// How long a checkpoint waits for more writes to share it.
    private let delay: DispatchTimeInterval

    /// `connection`: writable, without a busy timeout (a PASSIVE checkpoint never waits anyway).
    init(connection: DatabaseQueue, delay: DispatchTimeInterval = .milliseconds(5)) {
        state = Mutex(State(connection: connection))
        self.delay = delay
    }

    /// A write committed: checkpoint soon, unless one is already on its way.
    func request() {
        let schedule = state.withLock { state -> Bool in
            guard state.connection != nil, !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        guard schedule else { return }
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            // Taken before the checkpoint: a write committing during it schedules the next one.
            let connection = state.withLock { state -> DatabaseQueue? in
                state.scheduled = false
                return state.connection
            }
            // PASSIVE copies what no reader still needs and never blocks a writer; what it
            // leaves, the next checkpoint (or the close) copies.
            _ = try? connection?.writeWithoutTransaction { try $0.checkpoint(.passive) }
        }
    }

    /// Closes the connection after any checkpoint in progress: the database's last connection
    /// must close for SQLite to merge and remove the -wal file.
    func close() {
        queue.sync {
            let connection = state.withLock { state -> DatabaseQueue? in
                defer { state.connection = nil }
                return state.connection
            }
            try? connection?.close()
        }
    }
}
