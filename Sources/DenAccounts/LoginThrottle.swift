import FoundationEssentials
import Synchronization

/// The growing delays of failed logins that are not kept with the account (`AccountBook` keeps
/// the account's own): per client address, so one network cannot spray guesses across many
/// accounts, and per trusted device, so a stolen device cookie is good for only a few guesses.
/// In memory: a restart forgets them. Bounded: past `maxEntries` keys the oldest are forgotten.
package final class LoginThrottle: Sendable {
    private struct Counter {
        var failures: Int
        var last: Date
    }

    private struct State {
        var addresses: [String: Counter] = [:]
        var devices: [String: Counter] = [:]
    }

    /// Failures from one address before its delays start: a household or an office shares an
    /// address, and its people mistype too.
    package static let addressFactor = 4
    package static let maxEntries = 100_000

    private let state = Mutex(State())
    private let settings: @Sendable () -> AuthSettings

    package init(settings: @escaping @Sendable () -> AuthSettings) {
        self.settings = settings
    }

    /// Until when `address` must wait before another attempt, nil when it need not.
    package func addressWait(_ address: String, now: Date) -> Date? {
        let settings = settings()
        return state.withLock { state in
            Self.until(state.addresses[address], free: settings.maxFailedAttempts * Self.addressFactor, settings, now: now)
        }
    }

    /// Whether the device token `id` may still stand for a device its account trusts: past its
    /// own free failures it counts as a stranger (and waits like one).
    package func deviceTrusted(_ id: String) -> Bool {
        let free = settings().maxFailedAttempts
        return state.withLock { ($0.devices[id]?.failures ?? 0) < free }
    }

    package func failed(address: String, device: String?, now: Date) {
        state.withLock { state in
            if let device {
                state.devices[device, default: Counter(failures: 0, last: now)].failures += 1
                state.devices[device]?.last = now
                Self.trim(&state.devices)
            } else {
                state.addresses[address, default: Counter(failures: 0, last: now)].failures += 1
                state.addresses[address]?.last = now
                Self.trim(&state.addresses)
            }
        }
    }

    /// A good login clears its device's failures (an address's stay: logging in to one's own
    /// account must not buy more guesses at others').
    package func succeeded(device: String?) {
        guard let device else { return }
        _ = state.withLock { $0.devices.removeValue(forKey: device) }
    }

    private static func until(_ counter: Counter?, free: Int, _ settings: AuthSettings, now: Date) -> Date? {
        guard let counter, let delay = LoginDelay.after(failures: counter.failures, free: free, longest: settings.lockoutDuration)
        else { return nil }
        // A counter quiet for a day starts again.
        if now.timeIntervalSince(counter.last) > 86_400 { return nil }
        let until = counter.last.addingTimeInterval(delay)
        return until > now ? until : nil
    }

    private static func trim(_ counters: inout [String: Counter]) {
        guard counters.count > maxEntries else { return }
        let oldest = counters.sorted { $0.value.last < $1.value.last }.prefix(counters.count - maxEntries / 2)
        for (key, _) in oldest { counters[key] = nil }
    }
}
