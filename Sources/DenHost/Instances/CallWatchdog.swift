import DenKit
import DenSupport
import Synchronization

/// Times every module call (`ModuleCallRunner`) without a thread per call: one thread per
/// process, started with the first call, sleeps until the earliest slow notice or limit of the
/// calls in progress, says the notice once, and gives a call up at its limit or when its
/// `CallInterruption` fires (the terminal's Ctrl-C).
///
/// A call and the watchdog decide under the ticket's lock: either the call finishes first and its
/// caller gets the result, or the watchdog gives it up first and runs the give-up action, exactly
/// once, and the result, should it ever come, is late.
final class CallWatchdog: @unchecked Sendable {
    static let shared = CallWatchdog()

    /// How often the watchdog looks at interrupts that only a poll can see (the terminal's SIGINT
    /// flag), while a call that has them runs.
    static let interruptPoll = Duration.milliseconds(50)

    /// The watchdog thread's stack, in bytes.
    static let stackSize = 512 * 1024

    final class Ticket: @unchecked Sendable {
        enum State { case running, finished, givenUp(ModuleCallRunner.GiveUp) }

        let call: ModuleCall
        let start: ContinuousClock.Instant
        let notice: ContinuousClock.Instant?
        let deadline: ContinuousClock.Instant
        let interruption: CallInterruption?
        let onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)?
        /// Runs once when the call is given up (on the watchdog's thread), with why.
        let giveUp: @Sendable (ModuleCallRunner.GiveUp) -> Void
        let state = Mutex<State>(.running)
        /// Guarded by the watchdog's lock.
        nonisolated(unsafe) var noticed: Bool

        init(call: ModuleCall, policy: ModuleCallPolicy, interruption: CallInterruption?,
             onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)?,
             giveUp: @escaping @Sendable (ModuleCallRunner.GiveUp) -> Void) {
            self.call = call
            start = ContinuousClock.now
            notice = onSlowCall == nil || policy.slowNotice >= policy.timeout ? nil : start + policy.slowNotice
            deadline = start + policy.timeout
            self.interruption = interruption
            self.onSlowCall = onSlowCall
            self.giveUp = giveUp
            noticed = notice == nil
        }

        /// When the watchdog must next look at this call.
        var nextEvent: ContinuousClock.Instant { noticed ? deadline : notice! }

        /// The call returned: nil when it was still running (the result is the caller's), else
        /// why it was given up (the result is late).
        func finish() -> ModuleCallRunner.GiveUp? {
            state.withLock { state in
                if case .givenUp(let reason) = state { return reason }
                state = .finished
                return nil
            }
        }

        /// True when the call was still running: it is given up now, for `reason`.
        fileprivate func takeGiveUp(_ reason: ModuleCallRunner.GiveUp) -> Bool {
            state.withLock { state in
                guard case .running = state else { return false }
                state = .givenUp(reason)
                return true
            }
        }

        fileprivate var isRunning: Bool {
            state.withLock { if case .running = $0 { true } else { false } }
        }
    }

    private let lock = Lock()
    /// The calls in progress, in the order they started.
    private var tickets: [Ticket] = []
    private var started = false
    /// When the watchdog wakes next; nil while it waits for a call (or has not started).
    private var sleepingUntil: ContinuousClock.Instant?
    private let wake = ThreadSignal()

    /// Watches `ticket` until `end(ticket)`.
    /// - Throws: `StartFailure` when the watchdog's thread (started by the first call) could not
    ///   be started; the call is then not made.
    func begin(_ ticket: Ticket) throws(HostThread.StartFailure) {
        let (start, wakeUp) = lock.withLock { () -> (Bool, Bool) in
            tickets.append(ticket)
            let start = !started
            started = true
            // A flag-polled interrupt needs the watchdog awake at the poll interval.
            let earliest = ticket.interruption?.polls == true ? min(ticket.nextEvent, ticket.start + Self.interruptPoll) : ticket.nextEvent
            let wakeUp = sleepingUntil.map { earliest < $0 } ?? true
            return (start, wakeUp)
        }
        if start {
            do throws(HostThread.StartFailure) {
                // A small stack: it runs no module code, only give-up actions and notices, and
                // it starts where a thread with the default stack (`ulimit -s`) would not fit.
                try HostThread.start(name: "den watchdog", stackSize: Self.stackSize) { self.watch() }
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

    /// An interrupt was requested (`CallInterruption.interrupt()`): look at the calls now.
    func poke() {
        let running = lock.withLock { started }
        if running { wake.signal() }
    }

    private func watch() {
        let clock = ContinuousClock()
        while true {
            let now = clock.now
            var notices: [Ticket] = []
            var givenUp: [(Ticket, ModuleCallRunner.GiveUp)] = []
            let next = lock.withLock { () -> ContinuousClock.Instant? in
                var interrupted = Set<ObjectIdentifier>()
                // The latest call first: an interrupt gives up the innermost call of its session.
                for ticket in tickets.reversed() {
                    guard let interruption = ticket.interruption, !interrupted.contains(ObjectIdentifier(interruption)) else { continue }
                    if interruption.consume() {
                        interrupted.insert(ObjectIdentifier(interruption))
                        givenUp.append((ticket, .interrupted(after: now - ticket.start)))
                    }
                }
                tickets.removeAll { ticket in
                    if givenUp.contains(where: { $0.0 === ticket }) { return true }
                    if ticket.deadline <= now {
                        // Said as the limit it passed, however late this thread woke.
                        givenUp.append((ticket, .timedOut(after: ticket.deadline - ticket.start)))
                        return true
                    }
                    if !ticket.noticed, let notice = ticket.notice, notice <= now {
                        ticket.noticed = true
                        notices.append(ticket)
                    }
                    return false
                }
                var next = tickets.map(\.nextEvent).min()
                if tickets.contains(where: { $0.interruption?.polls == true }) {
                    next = min(next ?? now + Self.interruptPoll, now + Self.interruptPoll)
                }
                sleepingUntil = next
                return next
            }
            for ticket in notices where ticket.isRunning {
                ticket.onSlowCall?(ticket.call, now - ticket.start)
            }
            for (ticket, reason) in givenUp where ticket.takeGiveUp(reason) {
                ticket.giveUp(reason)
            }
            if let next { _ = wake.wait(upTo: next - clock.now) } else { wake.wait() }
        }
    }
}
