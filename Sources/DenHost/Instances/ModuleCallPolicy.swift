import FoundationEssentials
import Synchronization

/// How long the host waits for module code (a builder, `handle`) before giving up on it, and how
/// a front-end hears about a slow call and can interrupt it. A call that is given up is never
/// waited for again: its thread stays blocked in the module until it returns (in-process code
/// cannot be killed), the instance is abandoned and never called again, and the front-end
/// recovers the session on another thread (`CallHandOff`).
public struct ModuleCallPolicy: Sendable {
    /// The longest a call may run (`--call-timeout`, `DEN_CALL_TIMEOUT`; default 30 s, longer
    /// than the `http` service's own limits so a module fetching data is not cut short).
    package var timeout: Duration
    /// When a call has run this long, `onSlowCall` hears of it (the terminal says what it waits for).
    package var slowNotice: Duration

    /// A call that took longer is logged as a warning naming the module, the route pattern and
    /// the time (`--slow-call-ms`, `DEN_SLOW_CALL_MS`; default 500 ms).
    package var slowWarning: Duration

    package init(timeout: Duration = .seconds(30), slowNotice: Duration = .seconds(2), slowWarning: Duration = .milliseconds(500)) {
        self.timeout = timeout
        self.slowNotice = slowNotice
        self.slowWarning = slowWarning
    }

    public static let `default` = ModuleCallPolicy()
}

/// Lets a front-end give up the call in progress, e.g. when the user presses Ctrl-C. The
/// watchdog (`CallWatchdog`) gives the call up, through the same path as a call past the limit.
public final class CallInterruption: Sendable {
    private let requested = Atomic<Bool>(false)
    private let checking: (@Sendable () -> Bool)?

    /// - Parameter checking: polled by the watchdog while a call runs, for interrupts that
    ///   arrive elsewhere (the terminal's SIGINT flag); true once per interrupt. Without it,
    ///   `interrupt()` wakes the watchdog.
    public init(checking: (@Sendable () -> Bool)? = nil) {
        self.checking = checking
    }

    package func interrupt() {
        requested.store(true, ordering: .sequentiallyConsistent)
        CallWatchdog.shared.poke()
    }

    /// True when interrupts arrive through `checking`, so the watchdog must poll it.
    var polls: Bool { checking != nil }

    /// True once after `interrupt()` (or a `checking` hit); clears the request.
    func consume() -> Bool {
        let external = checking?() ?? false
        return requested.exchange(false, ordering: .sequentiallyConsistent) || external
    }
}
