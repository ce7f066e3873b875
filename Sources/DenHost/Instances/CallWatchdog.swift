import DenKit
import Synchronization

/// Times `.watched` module calls (`CallPlacement.watched`) without a thread per call: one thread
/// per process, started with the first watched call, sleeps until the earliest slow notice or
/// limit of the calls in progress, says the notice once and gives a call up at its limit.
///
/// A call and its watchdog decide under the ticket's lock, as `ModuleCallRunner`'s `Outcome`
/// does for a call on its own thread: either the call finishes first and its caller gets the
/// result, or the watchdog gives it up first and runs the give-up action, exactly once, and the
/// result, should it ever come, is late.
final class CallWatchdog: @unchecked Sendable {
    static let shared = CallWatchdog()

    final class Ticket: @unchecked Sendable {
        enum State { case running, finished, givenUp }

        let call: ModuleCall
        let start: ContinuousClock.Instant
        let notice: ContinuousClock.Instant?
        let deadline: ContinuousClock.Instant
        let onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)?
        /// Runs once when the call is given up (on the watchdog's thread), with how long it ran.
        let giveUp: @Sendable (Duration) -> Void
        let state = Mutex<State>(.running)
        /// Guarded by the watchdog's lock.
        nonisolated(unsafe) var noticed: Bool

        init(call: ModuleCall, policy: ModuleCallPolicy, onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)?,
             giveUp: @escaping @Sendable (Duration) -> Void) {
            self.call = call
            start = ContinuousClock.now
            notice = onSlowCall == nil || policy.slowNotice >= policy.timeout ? nil : start + policy.slowNotice
            deadline = start + policy.timeout
            self.onSlowCall = onSlowCall
            self.giveUp = giveUp
            noticed = notice == nil
        }

        /// When the watchdog must next look at this call.
        var nextEvent: ContinuousClock.Instant { noticed ? deadline : notice! }

        /// The call returned: true when it was still running (the result is the caller's).
        func finish() -> Bool {
            state.withLock { state in
                guard state == .running else { return false }
                state = .finished
                return true
            }
        }

        /// True when the call was still running: it is given up now.
        fileprivate func takeGiveUp() -> Bool {
            state.withLock { state in
                guard state == .running else { return false }
                state = .givenUp
                return true
            }
        }
    }

    private let lock = Lock()
    /// The calls in progress, in the order they started (with one policy, deadline order).
    private var tickets: [Ticket] = []
    private var started = false
    /// When the watchdog wakes next; nil while it waits for a call (or has not started).
    private var sleepingUntil: ContinuousClock.Instant?
    private let wake = ThreadSignal()

    /// Watches `ticket` until `end(ticket)`.
    func begin(_ ticket: Ticket) throws(HostThread.StartFailure) {
        let (start, wakeUp) = lock.withLock { () -> (Bool, Bool) in
            tickets.append(ticket)
            let start = !started
            started = true
            let wakeUp = sleepingUntil.map { ticket.nextEvent < $0 } ?? true
            return (start, wakeUp)
        }
        if start {
            do throws(HostThread.StartFailure) {
                try HostThread.start(name: "den watchdog") { self.watch() }
            } catch {
                lock.withLock {
                    started = false
                    tickets.removeAll { $0 === ticket }
                }
                throw error
            }
        } else if wakeUp {
            wake.signal()
        }
    }

    /// Stops watching `ticket` (its call returned).
    func end(_ ticket: Ticket) {
        lock.withLock {
            // The call ending is most often the latest one (a call made inside a call).
            if let index = tickets.lastIndex(where: { $0 === ticket }) { tickets.remove(at: index) }
        }
    }

    private func watch() {
        let clock = ContinuousClock()
        while true {
            let now = clock.now
            var notices: [Ticket] = []
            var expired: [Ticket] = []
            let next = lock.withLock { () -> ContinuousClock.Instant? in
                tickets.removeAll { ticket in
                    if ticket.deadline <= now {
                        expired.append(ticket)
                        return true
                    }
                    if !ticket.noticed, let notice = ticket.notice, notice <= now {
                        ticket.noticed = true
                        notices.append(ticket)
                    }
                    return false
                }
                sleepingUntil = tickets.map(\.nextEvent).min()
                return sleepingUntil
            }
            for ticket in notices where ticket.state.withLock({ $0 == .running }) {
                ticket.onSlowCall?(ticket.call, now - ticket.start)
            }
            for ticket in expired where ticket.takeGiveUp() {
                ticket.giveUp(now - ticket.start)
            }
            if let next { _ = wake.wait(upTo: next - clock.now) } else { wake.wait() }
        }
    }
}
