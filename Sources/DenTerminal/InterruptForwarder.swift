import DenHost
import Dispatch
import Foundation
import Synchronization

/// Ctrl-C in the terminal front-end: while a module call is running, it interrupts that call
/// (the session gives up on it and returns to the previous screen); at the prompt, it ends `den`
/// as usual. The signal is taken by a dispatch source, so nothing runs in a signal handler.
public final class InterruptForwarder {
    private final class BusyFlag: Sendable {
        let value = Atomic<Bool>(false)
    }

    private let busy = BusyFlag()
    private let source: any DispatchSourceSignal

    public init(interrupting interruption: CallInterruption) {
        signal(SIGINT, SIG_IGN) // the dispatch source receives it instead
        let busy = busy
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            if busy.value.load(ordering: .sequentiallyConsistent) {
                interruption.interrupt()
            } else {
                signal(SIGINT, SIG_DFL)
                raise(SIGINT)
            }
        }
        source.resume()
    }

    /// Runs `body` (one step of the session) with Ctrl-C interrupting module calls.
    public func whileBusy<T>(_ body: () -> T) -> T {
        busy.value.store(true, ordering: .sequentiallyConsistent)
        defer { busy.value.store(false, ordering: .sequentiallyConsistent) }
        return body()
    }
}
