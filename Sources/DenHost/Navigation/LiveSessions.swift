import DenKit
import FoundationEssentials

/// Every navigation session alive in this process (browser and terminal alike), held weakly, so
/// a hot swap can reach each live instance of a module. A session adds itself when it is made;
/// one that ends simply drops out.
package final class LiveSessions: @unchecked Sendable {
    private final class Weak {
        weak var session: NavigationSession?
        init(_ session: NavigationSession) { self.session = session }
    }

    // `lock` guards `entries` and `joined`, and is only held for a moment. A swap freezes the
    // list (`whileFrozen`): a session made meanwhile joins it with its turn held until the swap
    // ends, so its first step resolves routes against the swapped table and it can never build
    // an instance of the old version that the swap would miss. Nobody waits for the swap to be
    // made, only to take a step.
    private let lock = Lock()
    private var entries: [Weak] = []
    /// Sessions made during a swap, their turns held until it ends; nil when no swap runs.
    private var joined: [(session: NavigationSession, turn: UInt64)]?

    package init() {}

    package func add(_ session: NavigationSession) {
        lock.withLock {
            entries.removeAll { $0.session == nil }
            entries.append(Weak(session))
            if joined != nil {
                // At once: nothing else knows the session yet.
                joined?.append((session, session.takeTurn()))
            }
        }
    }

    /// The sessions alive now.
    package var sessions: [NavigationSession] {
        lock.withLock { entries.compactMap(\.session) }
    }

    /// Runs `body` with the live sessions; a session made meanwhile takes no step until `body`
    /// has returned. Swaps call this one at a time (`HotSwapper` serialises them).
    package func whileFrozen<T>(_ body: ([NavigationSession]) throws -> T) rethrows -> T {
        let sessions = lock.withLock { () -> [NavigationSession] in
            entries.removeAll { $0.session == nil }
            joined = []
            return entries.compactMap(\.session)
        }
        defer {
            let late = lock.withLock { () -> [(session: NavigationSession, turn: UInt64)] in
                defer { joined = nil }
                return joined ?? []
            }
            for (session, turn) in late { session.releaseTurn(turn) }
        }
        return try body(sessions)
    }
}
