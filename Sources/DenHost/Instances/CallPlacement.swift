import Synchronization

/// Where a session's module calls run, and so what the call limit can do about one that never
/// returns (docs/ABI.md, "A call that never returns").
public enum CallPlacement: Sendable {
    /// A thread per call: past the limit the caller gives the call up and goes on without it.
    /// For every process that outlives a stuck call (`den run`, `den serve`).
    case ownThread
    /// The calling thread, under the call alarm (`CallAlarm`): past the limit the process says
    /// so and exits. For a one-shot command that ends after its calls anyway (`den render`),
    /// whose start the thread would cost ≈ 0.3 ms of ≈ 5 (docs/PERFORMANCE.md). A call made while
    /// the alarm is armed (from inside another call) falls back to a thread of its own.
    case callingThread(ProcessEnding)
    /// The calling thread, watched by `CallWatchdog` (one thread per process): past the limit the
    /// watchdog gives the call up — the instance is abandoned, or the builder's module marked
    /// stalled — and tells `CallHandOff`, whose listener answers for the stuck caller and goes on
    /// on another thread; the calling thread stays in the module until it returns (as a call's own
    /// thread would), and what it then returns is the call's late result. No thread per call. For
    /// a front-end that can leave a stuck thread behind (`den serve`'s per-session queues); the
    /// caller must not hold anything another thread needs while it waits (NavigationSession's turn
    /// passes to the recovery, `NavigationSession.takeStalledStep`).
    case watched(CallHandOff)
}

/// Where the watchdog says that it gave up a `.watched` call (with the error naming module and
/// call): the front-end waiting for the stuck thread listens here, answers its request with the
/// stall and recovers the session on another thread.
public final class CallHandOff: Sendable {
    /// A call the watchdog gave up: the error naming module and call, and the call's number.
    package struct GivenUp: Sendable {
        package let error: ModuleCallError
        /// Which call of the session it was (`number()`), so that only the step that made it is
        /// taken over, never a later one.
        package let number: UInt64
    }

    private let listener = Mutex<(@Sendable (GivenUp) -> Void)?>(nil)
    private let calls = Atomic<UInt64>(0)

    public init() {}

    /// Sets what hears of a call given up (on the watchdog's thread: it must not block).
    package func listen(_ body: @escaping @Sendable (GivenUp) -> Void) {
        listener.withLock { $0 = body }
    }

    /// Numbers the session's next call (its calls are made one at a time).
    func number() -> UInt64 {
        calls.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
    }

    /// The number of the call being made.
    var current: UInt64 { calls.load(ordering: .sequentiallyConsistent) }

    func givenUp(_ call: GivenUp) {
        listener.withLock { $0 }?(call)
    }
}

/// What the process writes to standard error, and how it exits, when a call on the calling thread
/// passes the limit.
public struct ProcessEnding: Sendable {
    /// The exit status.
    package var status: Int32
    /// What the end means, said after the call's description ("den render ends here").
    package var consequence: String
    /// The error in the command's words ("Error: …\n"). It is made before every call, because
    /// the alarm can only write bytes that were ready before it went off.
    package var message: @Sendable (ModuleCallError) -> String

    package init(status: Int32, consequence: String, message: @escaping @Sendable (ModuleCallError) -> String) {
        self.status = status
        self.consequence = consequence
        self.message = message
    }
}
