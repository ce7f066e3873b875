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

    // `lock` guards `entries`; a swap holds it from start to end (`whileFrozen`), so no session
    // made meanwhile can build an instance of the old version that the swap would miss.
    private let lock = Lock()
    private var entries: [Weak] = []

    package init() {}

    func add(_ session: NavigationSession) {
        lock.withLock {
            entries.removeAll { $0.session == nil }
            entries.append(Weak(session))
        }
    }

    /// The sessions alive now.
    package var sessions: [NavigationSession] {
        lock.withLock { entries.compactMap(\.session) }
    }

    /// Runs `body` with the live sessions while no new session can be made.
    func whileFrozen<T>(_ body: ([NavigationSession]) throws -> T) rethrows -> T {
        try lock.withLock {
            entries.removeAll { $0.session == nil }
            return try body(entries.compactMap(\.session))
        }
    }
}
