import CDenSignals
import DenHost

/// Ctrl-C in the terminal front-end: while a module call is running, it interrupts that call
/// (the session gives up on it and returns to the previous screen); at the prompt, it ends `den`
/// with status 130 as usual. The handler itself is C (Sources/CDenSignals): it only flips flags,
/// and the call watchdog polls them through `interruption` while a call runs, and gives the call
/// up as it does one past the limit.
package final class InterruptForwarder {
    /// What a session built with it polls: true once per Ctrl-C pressed during a call.
    package let interruption = CallInterruption(checking: { den_sigint_take() != 0 })

    package init() {
        den_sigint_install()
    }

    /// Runs `body` (one step of the session) with Ctrl-C interrupting module calls.
    package func whileBusy<T>(_ body: () -> T) -> T {
        den_sigint_set_busy(1)
        defer { den_sigint_set_busy(0) }
        return body()
    }

    /// True once after a Ctrl-C pressed inside `whileBusy` (for waits that poll, such as
    /// reading a password); clears it.
    func takeInterrupt() -> Bool {
        den_sigint_take() != 0
    }
}
