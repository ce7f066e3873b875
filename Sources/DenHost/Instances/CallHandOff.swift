import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the watchdog says that it gave up a call (with the error naming module and call). Every
/// module call runs on its caller's thread (`ModuleCallRunner`), so a caller stuck in a call
/// given up cannot answer for itself: the front-end that waits for it listens here, answers its
/// request with the stall and recovers the session on another thread (`den serve`'s
/// `BrowserSession`, `den run`'s `SessionLane`); a one-shot process ends instead
/// (`init(ending:)`). The stuck thread stays in the module until it returns, and what it then
/// returns is discarded.
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
    /// Set for a one-shot process: the stall error's last words ("den render ends here").
    let consequence: String?

    public init() {
        consequence = nil
    }

    /// For a one-shot process (`den render`, `den call`), which ends after its calls anyway:
    /// a call given up ends the process at once with `ending`'s message and status, from the
    /// watchdog's thread, without waiting for the stuck caller. The process ends with `_exit`:
    /// no `atexit` handler runs and nothing buffered is flushed.
    public init(ending: ProcessEnding) {
        consequence = ending.consequence
        listener.withLock {
            $0 = { call in
                var message = ending.message(call.error)
                message.withUTF8 { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                        if written <= 0 { break }
                        offset += written
                    }
                }
                _exit(ending.status)
            }
        }
    }

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

/// What a one-shot process writes to standard error, and how it exits, when the watchdog gives
/// up one of its calls (`CallHandOff.init(ending:)`).
public struct ProcessEnding: Sendable {
    /// The exit status.
    package var status: Int32
    /// What the end means, said after the call's description ("den render ends here").
    package var consequence: String
    /// The error in the command's words ("Error: …\n").
    package var message: @Sendable (ModuleCallError) -> String

    package init(status: Int32, consequence: String, message: @escaping @Sendable (ModuleCallError) -> String) {
        self.status = status
        self.consequence = consequence
        self.message = message
    }
}
