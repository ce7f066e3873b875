import DenSupport
import FoundationEssentials
import Logging
import Synchronization

/// Keeps a running den in step with the grants in storage, which `den modules grant` and
/// `den modules permissions --revoke` change from another process, or another host on
/// PostgreSQL: every `period` it reads them again (one storage read), so a revocation is
/// enforced within a period, and a module held for permissions that is now granted is handed to
/// `onRelease` (den serve hot-swaps it in).
package final class GrantFollower: Sendable {
    private let book: PermissionBook
    private let period: Duration
    private let onRelease: @Sendable (URL) -> Void
    private let logger: Logger?
    private let stopped = Atomic<Bool>(false)
    /// The last read failure said, so an outage is said once, not every period.
    private let lastProblem = Mutex<String?>(nil)

    package init(book: PermissionBook, period: Duration = .seconds(2), logger: Logger?, onRelease: @escaping @Sendable (URL) -> Void) {
        self.book = book
        self.period = period
        self.logger = logger
        self.onRelease = onRelease
    }

    package func start() throws(HostThread.StartFailure) {
        try HostThread.start(name: "den.grants") { [self] in
            while !stopped.load(ordering: .relaxed) {
                HostThread.sleep(for: period)
                if stopped.load(ordering: .relaxed) { break }
                check()
            }
        }
    }

    package func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    /// One round: read the grants, release what they now cover.
    package func check() {
        do {
            try book.refreshed()
            if lastProblem.withLock({ $0 }) != nil {
                lastProblem.withLock { $0 = nil }
                logger?.notice("the module grants can be read again")
            }
        } catch {
            let said = lastProblem.withLock { last -> Bool in
                defer { last = error.message }
                return last != nil
            }
            // The grants last read stay in force: an outage neither widens nor narrows them.
            if !said { logger?.warning("cannot read the module grants (\(error.message)); den keeps the ones it has and tries again every \(period)") }
            return
        }
        for held in book.takeReleasable() {
            logger?.notice("module grant: \(URL(fileURLWithPath: held.filePath).lastPathComponent) \(held.version) is now granted what it asks for; loading it")
            onRelease(URL(fileURLWithPath: held.filePath))
        }
    }
}
