import DenSupport
import DenTerminalText
import DenHost
import DenKit
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// What the terminal shows while den waits for a slow module call: which module and call, that
/// Ctrl-C gives up the wait (den keeps running), and, on a terminal, the time waited so far
/// every few seconds. Everything goes to standard error, so a script reading screens from
/// standard output is undisturbed.
///
/// While the notice shows, keys typed at the terminal are neither echoed nor kept for the prompt:
/// they were typed for a screen that may be gone when the call returns, so `stepEnded()` hands
/// them back for the session to report instead of applying them.
package final class WaitNotice: Sendable {
    /// How long a call runs before the notice appears (`ModuleCallPolicy.slowNotice`).
    package static let delay: Duration = .milliseconds(500)

    private struct State: @unchecked Sendable {
        /// The terminal's settings before input was quietened; nil when it was not.
        var savedInput: termios?
        var ticker: Ticker?
    }

    private let live: Bool
    private let style: TerminalStyle
    private let state = Mutex(State())

    /// - Parameter live: standard error and standard input are a terminal (elapsed time now and
    ///   then, quiet input); otherwise one line is written.
    package init(live: Bool = isatty(STDERR_FILENO) == 1 && isatty(STDIN_FILENO) == 1, style: TerminalStyle = .plain) {
        self.live = live
        self.style = style
    }

    /// The line written when output is not a terminal.
    static func line(for call: ModuleCall, elapsed: Duration) -> String {
        "(waiting for \(call) — \(ModuleCallRunner.format(elapsed)) so far; Ctrl-C gives up on it, den keeps running)"
    }

    /// Called on the waiting thread when a call has run past `delay`.
    package func callIsSlow(_ call: ModuleCall, elapsed: Duration) {
        guard live else {
            Self.write(Self.line(for: call, elapsed: elapsed) + "\n")
            return
        }
        let text = "(waiting for \(call); Ctrl-C gives up the wait, den keeps running)"
        let width = TerminalWidth.current(descriptor: STDERR_FILENO)
        Self.write(TerminalText.wrap(text, width: width).map(style.notice).joined(separator: "\n") + "\n")
        let ticker = Ticker(start: ContinuousClock.now - elapsed, style: style)
        state.withLock { state in
            state.savedInput = Self.quietenInput()
            state.ticker = ticker
        }
        ticker.start()
    }

    /// Called after every step: ends the notice, if one was shown, and returns what was typed
    /// meanwhile (nil when nothing was).
    package func stepEnded() -> String? {
        let (saved, ticker) = state.withLock { state in
            defer { state = State() }
            return (state.savedInput, state.ticker)
        }
        ticker?.stop()
        guard var saved else { return nil }
        let typed = Self.drainInput()
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        let text = String(decoding: typed, as: UTF8.self).trimmingWhitespace()
        return text.isEmpty ? nil : text
    }

    /// Echo off and reads that return at once, so typed keys can be collected afterwards;
    /// Ctrl-C still raises SIGINT (ISIG stays on).
    private static func quietenInput() -> termios? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO | ICANON)
        withUnsafeMutableBytes(of: &quiet.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        return tcsetattr(STDIN_FILENO, TCSANOW, &quiet) == 0 ? saved : nil
    }

    /// Everything waiting to be read (VMIN 0, VTIME 0: read returns 0 when nothing is left).
    private static func drainInput() -> [UInt8] {
        var typed: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while typed.count < 4096 {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            guard count > 0 else { break }
            typed += buffer[0..<count]
        }
        return typed
    }

    static func write(_ text: String) {
        StandardStream.error.write(text)
    }
}

/// Adds "  still waiting: 5 s so far" every 5 seconds until stopped. Whole lines, never
/// rewritten in place: the host's own log lines (standard error too) may come in between.
private final class Ticker: Sendable {
    static let every: Duration = .seconds(5)

    private let begin: ContinuousClock.Instant
    private let style: TerminalStyle
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(start: ContinuousClock.Instant, style: TerminalStyle) {
        self.begin = start
        self.style = style
    }

    func start() {
        // Without a thread there are no "still waiting" lines; `stop` must not wait for them.
        do { try startTicking() } catch { finished.signal() }
    }

    private func startTicking() throws(HostThread.StartFailure) {
        try HostThread.start(name: "den wait notice") { [self] in
            var next = Ticker.every
            while !stopped.load(ordering: .acquiring) {
                let elapsed = ContinuousClock.now - begin
                if elapsed >= next {
                    WaitNotice.write(style.quiet("  still waiting: \(ModuleCallRunner.format(elapsed)) so far") + "\n")
                    next += Ticker.every
                }
                HostThread.sleep(for: .milliseconds(100))
            }
            finished.signal()
        }
    }

    /// Stops the updates and waits until the thread is done, so the next screen is not
    /// interleaved with a last line.
    func stop() {
        stopped.store(true, ordering: .releasing)
        finished.wait()
    }
}
