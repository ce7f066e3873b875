import CDenABI
import Foundation
import Synchronization

/// Runs module code on a thread of its own while the caller waits with a deadline, so a module
/// that never returns cannot hang the host (den_module.h: calls are serialised per instance,
/// which this keeps: the caller waits for each call or gives it up for good).
public struct ModuleCallRunner: Sendable {
    var policy: ModuleCallPolicy
    var interruption: CallInterruption?
    var onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)?

    init(policy: ModuleCallPolicy = .default, interruption: CallInterruption? = nil,
         onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)? = nil) {
        self.policy = policy
        self.interruption = interruption
        self.onSlowCall = onSlowCall
    }

    /// Why a call was given up.
    enum GiveUp: Error, Equatable {
        case timedOut(after: Duration)
        case interrupted(after: Duration)
    }

    /// The result of `body`, or why the caller stopped waiting for it. When the caller gives up,
    /// `body` keeps running on its thread and its eventual result is dropped.
    func run<T: Sendable>(_ call: ModuleCall, _ body: @escaping @Sendable () -> T) -> Result<T, GiveUp> {
        let outcome = Outcome<T>()
        let worker = Thread { outcome.finish(body()) }
        worker.name = "den: \(call)"
        _ = interruption?.consume() // an interrupt pressed before this call is not for it
        let clock = ContinuousClock()
        let start = clock.now
        worker.start()
        var noticed = false
        while true {
            // Wake up often enough to notice an interrupt; a finished call wakes us at once.
            if outcome.wait(upTo: .milliseconds(50)) { return .success(outcome.value!) }
            let elapsed = clock.now - start
            if interruption?.consume() == true { return .failure(.interrupted(after: elapsed)) }
            if elapsed >= policy.timeout { return .failure(.timedOut(after: elapsed)) }
            if !noticed, elapsed >= policy.slowNotice {
                noticed = true
                onSlowCall?(call, elapsed)
            }
        }
    }

    /// A `ModuleCallError` for a call given up, naming the module and the call.
    static func error(for call: ModuleCall, _ giveUp: GiveUp) -> ModuleCallError {
        let message = switch giveUp {
        case .timedOut(let after):
            "did not return from \(call.what) within \(format(after)) (the call limit, --call-timeout); the host gave up on it and will never call this instance again"
        case .interrupted(let after):
            "was interrupted in \(call.what) after \(format(after)); the host gave up on it and will never call this instance again"
        }
        return ModuleCallError(moduleID: call.moduleID, status: Int32(DEN_ERR_INTERNAL.rawValue), message: message, isStall: true)
    }

    /// "2.0 s", "35 s".
    public static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds < 10 ? String(format: "%.1f s", seconds) : "\(Int(seconds.rounded())) s"
    }
}

/// Where a worker thread leaves its result for the waiting caller.
private final class Outcome<T: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let stored = Mutex<T?>(nil)

    var value: T? { stored.withLock { $0 } }

    func finish(_ value: T) {
        stored.withLock { $0 = value }
        done.signal()
    }

    /// True when the result arrived within `duration`.
    func wait(upTo duration: Duration) -> Bool {
        let nanoseconds = Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000)
        guard done.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return false }
        done.signal() // keep it signalled for any later look
        return true
    }
}
