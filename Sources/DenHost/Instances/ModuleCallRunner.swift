import CDenABI
import FoundationEssentials
import Synchronization

/// Runs module code on a thread of its own while the caller waits with a deadline, so a module
/// that never returns cannot hang the host (den_module.h: calls are serialised per instance,
/// which this keeps: the caller waits for each call or gives it up for good). A new thread per
/// call, not a kept one: waking a waiting worker cost more here than starting a thread
/// (docs/PERFORMANCE.md, "What a fresh process pays for"). A one-shot command runs them on the
/// calling thread instead, under an alarm that ends the process (`CallPlacement.callingThread`);
/// `den serve` runs them on the calling thread too, timed by one watchdog thread per process
/// (`CallPlacement.watched`, `CallWatchdog`).
public struct ModuleCallRunner: Sendable {
    var policy: ModuleCallPolicy
    var placement: CallPlacement
    var interruption: CallInterruption?
    var onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)?
    /// The UI session the calls are for, bound on each worker thread (`CallContext`).
    var session: UISessionID?
    /// Starts each call's thread; a spec replaces it to play a system out of threads.
    var startThread: @Sendable (String, @escaping @Sendable () -> Void) throws(HostThread.StartFailure) -> Void = { name, body throws(HostThread.StartFailure) in
        try HostThread.start(name: name, body)
    }

    /// True for `.watched` calls: a given-up call's caller is stuck in it, and someone else
    /// recovers (`NavigationSession.takeStalledStep`).
    var isWatched: Bool {
        if case .watched = placement { return true }
        return false
    }

    /// This runner with a thread per call instead of the watchdog: for callers that nobody
    /// recovers when they are stuck (a hot swap rebuilding screens).
    var unwatched: ModuleCallRunner {
        guard isWatched else { return self }
        var runner = self
        runner.placement = .ownThread
        return runner
    }

    public init(policy: ModuleCallPolicy = .default, placement: CallPlacement = .ownThread, interruption: CallInterruption? = nil,
                session: UISessionID? = nil, onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)? = nil) {
        self.policy = policy
        self.placement = placement
        self.interruption = interruption
        self.session = session
        self.onSlowCall = onSlowCall
    }

    /// Why a call was given up, or never made.
    public enum GiveUp: Error, Equatable {
        case timedOut(after: Duration)
        case interrupted(after: Duration)
        /// No thread could be started for the call: the module's code did not run, and the
        /// instance stays usable once the system has threads again.
        case noThread(HostThread.StartFailure)
    }

    /// The result of `body`, or why the caller stopped waiting for it.
    ///
    /// Giving up and finishing are decided under one lock, so exactly one of two things happens:
    /// the caller gets the result, or `whenGivenUp` runs (on the caller's thread, under that lock)
    /// and, should `body` ever return, `lateResult` gets what it returned (on the worker thread,
    /// after `whenGivenUp`). A result that arrives while the caller is giving up is still used.
    ///
    /// `.watched` calls need `onAbandon`, the give-up action the watchdog can run from its own
    /// thread (`whenGivenUp` cannot leave the call), and `consequence`, the stall error's words
    /// for the front-end that hears of it (`CallHandOff`); without `onAbandon` they get a thread.
    /// The caller of a `.watched` call given up gets the failure only once the call returns (it
    /// ran on the caller's thread), after `lateResult`.
    public func run<T: Sendable>(_ call: ModuleCall, whenGivenUp: () -> Void = {},
                          onAbandon: (@Sendable () -> Void)? = nil, consequence: String = "the host gave up on it",
                          lateResult: @escaping @Sendable (T) -> Void = { _ in },
                          _ body: @escaping @Sendable () -> T) -> Result<T, GiveUp> {
        let session = session
        _ = interruption?.consume() // an interrupt pressed before this call is not for it
        // Services called from inside `body` learn the UI session from the thread it runs on.
        let perform: @Sendable () -> T = { CrashNote.during(CrashNote.call(call)) { CallContext.$session.withValue(session) { body() } } }
        if case .watched(let handOff) = placement, let onAbandon {
            let number = handOff.current
            let ticket = CallWatchdog.Ticket(call: call, policy: policy, onSlowCall: onSlowCall) { elapsed in
                onAbandon()
                handOff.givenUp(CallHandOff.GivenUp(error: Self.error(for: call, .timedOut(after: elapsed), consequence: consequence),
                                                    number: number))
            }
            do throws(HostThread.StartFailure) { try CallWatchdog.shared.begin(ticket) } catch { return .failure(.noThread(error)) }
            let value = perform()
            CallWatchdog.shared.end(ticket)
            if ticket.finish() { return .success(value) }
            lateResult(value)
            return .failure(.timedOut(after: ContinuousClock.now - ticket.start))
        }
        if case .callingThread(let ending) = placement {
            let stall = Self.error(for: call, .timedOut(after: policy.timeout), consequence: ending.consequence)
            if CallAlarm.arm(after: policy.timeout, message: ending.message(stall), status: ending.status) {
                defer { CallAlarm.disarm() }
                return .success(perform())
            }
            // Armed already (a call from inside a call) or no timer: the call gets a thread.
        }
        let outcome = Outcome<T>()
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try startThread("den \(call.moduleID)") {
                let value = perform()
                if !outcome.finish(value) { lateResult(value) }
            }
        } catch {
            return .failure(.noThread(error))
        }
        // The caller sleeps until the result, the slow notice, the limit or an interrupt
        // (`interrupt()` wakes it), whichever comes first: no polling, except for interrupts
        // that only a poll can see (the terminal's SIGINT flag), every 50 ms.
        let polls = interruption?.polls == true
        let outerWaiter = interruption?.swapWaiter(outcome.signal) // a call made inside a call puts it back
        defer { _ = interruption?.swapWaiter(outerWaiter) }
        var noticed = onSlowCall == nil
        while true {
            let wakeAt = noticed ? policy.timeout : min(policy.slowNotice, policy.timeout)
            var sleep = wakeAt - (clock.now - start)
            if polls { sleep = min(sleep, .milliseconds(50)) }
            if outcome.wait(upTo: sleep), let value = outcome.settle(givingUp: false, whenGivenUp) { return .success(value) }
            let elapsed = clock.now - start
            var giveUp: GiveUp?
            if interruption?.consume() == true { giveUp = .interrupted(after: elapsed) }
            else if elapsed >= policy.timeout { giveUp = .timedOut(after: elapsed) }
            if let giveUp {
                // A result that arrives while the caller gives up is still used.
                if let value = outcome.settle(givingUp: true, whenGivenUp) { return .success(value) }
                return .failure(giveUp)
            }
            if !noticed, elapsed >= policy.slowNotice {
                noticed = true
                onSlowCall?(call, elapsed)
            }
        }
    }

    /// A `ModuleCallError` for a call given up, naming the module and the call; `consequence`
    /// says what giving up means for the caller ("will never call this instance again").
    static func error(for call: ModuleCall, _ giveUp: GiveUp, consequence: String) -> ModuleCallError {
        if case .noThread(let failure) = giveUp {
            return ModuleCallError(moduleID: call.moduleID, status: Int32(DEN_ERR_INTERNAL.rawValue),
                                   message: "could not be called for \(call.what): \(failure)", isStall: false)
        }
        let message = switch giveUp {
        case .timedOut(let after):
            "did not return from \(call.what) within \(format(after)) (the call limit, --call-timeout); \(consequence)"
        case .interrupted(let after):
            "was interrupted in \(call.what) after \(format(after)); \(consequence)"
        case .noThread(let failure):
            "could not be called for \(call.what): \(failure)" // answered above
        }
        return ModuleCallError(moduleID: call.moduleID, status: Int32(DEN_ERR_INTERNAL.rawValue), message: message, isStall: true)
    }

    /// "2.0 s", "35 s".
    package static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds < 10 ? NumberText.fixed(seconds, places: 1) + " s" : "\(Int(seconds.rounded())) s"
    }
}

/// Where a worker thread leaves its result for the waiting caller, and where the caller's
/// decision to give up is recorded, both under one lock.
private final class Outcome<T: Sendable>: Sendable {
    private enum State {
        case running
        case finished(T)
        case givenUp
    }

    private let done = ThreadSignal()
    private let state = Mutex<State>(.running)

    /// What the caller waits on: the result signals it, and so does an interrupt.
    var signal: ThreadSignal { done }

    /// Stores the result; false when the caller had already given up.
    func finish(_ value: T) -> Bool {
        let taken = state.withLock { state -> Bool in
            guard case .running = state else { return false }
            state = .finished(value)
            return true
        }
        if taken { done.signal() }
        return taken
    }

    /// The result if it has arrived; otherwise, when `givingUp`, records that the caller gave up
    /// and runs `whenGivenUp` under the lock. nil when there is no result.
    func settle(givingUp: Bool, _ whenGivenUp: () -> Void) -> T? {
        state.withLock { state in
            if case .finished(let value) = state { return value }
            if givingUp {
                state = .givenUp
                whenGivenUp()
            }
            return nil
        }
    }

    /// True when a result (or an interrupt) may have arrived within `duration`.
    func wait(upTo duration: Duration) -> Bool {
        done.wait(upTo: duration)
    }
}
