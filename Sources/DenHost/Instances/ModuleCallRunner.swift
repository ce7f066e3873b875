import CDenABI
import DenSupport
import FoundationEssentials
import Synchronization

/// Runs module code on the caller's thread, timed by the one watchdog thread of the process
/// (`CallWatchdog`), so a module that never returns cannot hang the host's session: no thread is
/// started per call, and a call needs no wake-up (handing a call to another core costs ≈ 25 µs
/// each way here, more than a small call itself). den_module.h's rule that calls are serialised
/// per instance holds: the caller waits for each call, or it is given up for good.
///
/// A call past the limit (or interrupted, the terminal's Ctrl-C) is given up the same way for
/// every caller: the watchdog runs the give-up action (the instance is abandoned, or the
/// builder's module marked stalled) and tells the `CallHandOff`, whose front-end answers with the
/// error and recovers the session on another thread, or ends a one-shot process. The caller's
/// thread stays in the module until it returns; then it gets the failure, and what the module
/// returned late goes to `lateResult` and is otherwise discarded.
public struct ModuleCallRunner: Sendable {
    var policy: ModuleCallPolicy
    /// Who hears of a call given up; nil when nobody recovers the caller (a hot swap, an export
    /// called from a session): it waits for the module to return, then gets the failure.
    var handOff: CallHandOff?
    var interruption: CallInterruption?
    var onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)?
    /// The UI session the calls are for, bound on the calling thread for each call (`CallContext`).
    var session: UISessionID?
    /// Hears of every call as it ends (the slow-call warning, the time share, metrics).
    var observer: (any ModuleCallObserver)?

    /// This runner without its hand-off: for callers that nobody recovers when they are stuck
    /// (a hot swap rebuilding screens).
    var unrecovered: ModuleCallRunner {
        var runner = self
        runner.handOff = nil
        return runner
    }

    public init(policy: ModuleCallPolicy = .default, handOff: CallHandOff? = nil, interruption: CallInterruption? = nil,
                session: UISessionID? = nil, observer: (any ModuleCallObserver)? = nil,
                onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)? = nil) {
        self.policy = policy
        self.observer = observer
        self.handOff = handOff
        self.interruption = interruption
        self.session = session
        self.onSlowCall = onSlowCall
    }

    /// Why a call was given up, or never made.
    public enum GiveUp: Error, Equatable, Sendable {
        case timedOut(after: Duration)
        case interrupted(after: Duration)
        /// The watchdog's thread could not be started (at the first call): the module's code did
        /// not run, and the instance stays usable once the system has threads again.
        case noThread(HostThread.StartFailure)
    }

    /// The result of `body`, run on this thread, or why it was given up.
    ///
    /// Giving up and finishing are decided under the watchdog ticket's lock, so exactly one of
    /// two things happens: the caller gets the result, or `onAbandon` runs (on the watchdog's
    /// thread, once) and the hand-off hears of it; then, once `body` returns, `lateResult` gets
    /// what it returned and the caller gets the failure. `consequence` is the stall error's last
    /// words ("the host gave up on it and will never call this instance again"). `status` reads
    /// the `den_status` a result carries, for the observer.
    public func run<T>(_ call: ModuleCall, status: (T) -> Int32 = { _ in 0 }, onAbandon: @escaping @Sendable () -> Void = {},
                       consequence: String = "the host gave up on it",
                       lateResult: (T) -> Void = { _ in }, _ body: () -> T) -> Result<T, GiveUp> {
        _ = interruption?.consume() // an interrupt pressed before this call is not for it
        let handOff = handOff
        let number = handOff?.current ?? 0
        let consequence = handOff?.consequence ?? consequence
        let observer = observer, started = ContinuousClock.now
        let span = observer?.moduleCallBegins(call)
        let ticket = CallWatchdog.Ticket(call: call, policy: policy, interruption: interruption, onSlowCall: onSlowCall) { reason in
            // Counted now: a call stuck for good in a module never returns to be counted.
            observer?.moduleCallEnded(call, took: .now - started, result: .gaveUp)
            span?.end(error: ModuleCallResult.gaveUp.spanError)
            onAbandon()
            handOff?.givenUp(CallHandOff.GivenUp(error: Self.error(for: call, reason, consequence: consequence), number: number))
        }
        do throws(HostThread.StartFailure) { try CallWatchdog.shared.begin(ticket) } catch {
            span?.end(error: "\(error)")
            return .failure(.noThread(error))
        }
        // Services called from inside `body` learn the UI session, and the span to hang theirs
        // under, from this thread.
        let session = session
        let value = CrashNote.during(CrashNote.call(call)) { CallContext.$session.withValue(session) { CallTrace.with(span) { body() } } }
        CallWatchdog.shared.end(ticket)
        guard let givenUp = ticket.finish() else {
            let result = ModuleCallResult.returned(status: status(value))
            observer?.moduleCallEnded(call, took: .now - ticket.start, result: result)
            span?.end(error: result.spanError)
            return .success(value)
        }
        lateResult(value)
        return .failure(givenUp)
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
