import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A line of progress on standard error while long work runs (`den data migrate`, `den cache
/// clean`): redrawn in place at most ten times a second, with a bar when the total is known, and
/// cleared at the end. When standard error is not a terminal nothing is written at all, so a
/// script's log stays as it was.
package final class ProgressLine: Sendable {
    private let enabled: Bool
    private let width: Int
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let write: @Sendable (String) -> Void
    private struct State {
        var last: ContinuousClock.Instant?
        var label = ""
        var drawn = false
    }
    private let state = Mutex(State())

    /// On standard error, when it is a terminal `width` columns wide.
    package convenience init(width: Int) {
        self.init(enabled: isatty(STDERR_FILENO) == 1, width: width) { text in
            text.withCString { _ = Glibc.write(STDERR_FILENO, $0, strlen($0)) }
        }
    }

    package init(enabled: Bool, width: Int, clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
                 write: @escaping @Sendable (String) -> Void) {
        self.enabled = enabled
        self.width = max(width, 20)
        self.clock = clock
        self.write = write
    }

    /// "Copying [######    ] 120/200 entries": drawn now if a tenth of a second has passed
    /// since the last drawing (or the label changed, or the work is done).
    package func update(_ label: String, done: Int, total: Int, unit: String) {
        let bar = 20
        let filled = total > 0 ? min(bar, done * bar / total) : 0
        let text = "\(label) [\(String(repeating: "#", count: filled))\(String(repeating: " ", count: bar - filled))] \(done)/\(total) \(unit)"
        draw(text, label: label, force: done >= total)
    }

    /// A phase without a count: "Writing 5000 entries in one transaction".
    package func update(_ text: String) {
        draw(text, label: text, force: true)
    }

    /// Clears the line, so what is printed next starts on a clean one.
    package func finish() {
        guard enabled else { return }
        let drawn = state.withLock { $0.drawn }
        if drawn { write("\r\u{1B}[2K") }
    }

    private func draw(_ text: String, label: String, force: Bool) {
        guard enabled else { return }
        let now = clock()
        let due = state.withLock { state -> Bool in
            let due = force || state.label != label || state.last.map { now - $0 >= .milliseconds(100) } ?? true
            if due {
                state.last = now
                state.label = label
                state.drawn = true
            }
            return due
        }
        guard due else { return }
        write("\r\u{1B}[2K" + String(text.prefix(width - 1)))
    }
}
