import Synchronization

/// Which module took most of den's module time over the last full minute: the blame `den
/// plugins` and About show. Most means more than half of all module-call time, and only in a
/// minute where modules ran for at least `minimumBusy` in all (an idle den blames nobody for
/// its one page view).
package final class ModuleTimeShare: ModuleCallObserver, Sendable {
    /// What the last full minute found.
    package struct Blame: Sendable, Equatable {
        package var moduleID: String
        /// Its share of all module-call time, 0…1.
        package var share: Double
        package var busy: Duration
        package var total: Duration

        /// "took 83% of den's module time over the last minute (41.2 s of 49.6 s)".
        package var text: String {
            "took \(Int((share * 100).rounded()))% of den's module time over the last minute (\(Self.seconds(busy)) of \(Self.seconds(total)))"
        }

        static func seconds(_ duration: Duration) -> String {
            let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            return value < 10 ? "\((value * 10).rounded() / 10) s" : "\(Int(value.rounded())) s"
        }
    }

    private struct State {
        var windowStart: ContinuousClock.Instant
        var current: [String: Duration] = [:]
        var blame: Blame?
    }

    package static let window = Duration.seconds(60)
    package let minimumBusy: Duration
    private let state: Mutex<State>

    package init(minimumBusy: Duration = .seconds(1), now: ContinuousClock.Instant = .now) {
        self.minimumBusy = minimumBusy
        state = Mutex(State(windowStart: now))
    }

    package func moduleCallEnded(_ call: ModuleCall, took: Duration, result: ModuleCallResult) {
        record(call.moduleID, took: took)
    }

    package func record(_ moduleID: String, took: Duration, at now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            roll(&state, now: now)
            state.current[moduleID, default: .zero] += took
        }
    }

    /// The module to blame for the last full minute, if one took most of it.
    package func blame(at now: ContinuousClock.Instant = .now) -> Blame? {
        state.withLock { state in
            roll(&state, now: now)
            return state.blame
        }
    }

    /// Ends the minute once it is over; a minute with no calls at all blames nobody.
    private func roll(_ state: inout State, now: ContinuousClock.Instant) {
        guard now - state.windowStart >= Self.window else { return }
        let total = state.current.values.reduce(Duration.zero, +)
        state.blame = nil
        // A window that ended long ago saw no calls since: its minute and the empty ones after it.
        if now - state.windowStart < Self.window * 2, total >= minimumBusy,
           let top = state.current.max(by: { $0.value < $1.value }), top.value * 2 > total {
            state.blame = Blame(moduleID: top.key, share: top.value / total, busy: top.value, total: total)
        }
        state.current = [:]
        let elapsed = now - state.windowStart
        state.windowStart += Self.window * Int(elapsed / Self.window)
    }
}
