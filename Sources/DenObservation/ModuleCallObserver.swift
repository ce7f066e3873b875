import CDenABI
import Synchronization

/// How a module call ended, as an observer sees it.
public enum ModuleCallResult: Sendable, Equatable {
    /// The module returned this `den_status` (`DEN_OK`, or the error it reported).
    case returned(status: Int32)
    /// The host gave up on it: past the call limit, or interrupted.
    case gaveUp
}

/// Hears of every module call as it ends: builders, `handle` and exports, in-process and
/// isolated alike (an isolated module's stand-in is called the same way). Called on the calling
/// thread, after the call: keep it short.
public protocol ModuleCallObserver: Sendable {
    /// A call begins: its span, when den traces, which the caller ends with the call.
    func moduleCallBegins(_ call: ModuleCall) -> (any TraceSpan)?
    func moduleCallEnded(_ call: ModuleCall, took: Duration, result: ModuleCallResult)
}

extension ModuleCallObserver {
    public func moduleCallBegins(_ call: ModuleCall) -> (any TraceSpan)? { nil }
}

/// Hears of every host service call a module makes (an isolated module's arrive as frames and
/// are answered here too), after it was answered.
public protocol ServiceCallObserver: Sendable {
    /// `requestBytes` and `replyBytes` are the request and the answer as they crossed the ABI.
    func serviceCalled(_ operation: String, moduleID: String, status: den_status, requestBytes: Int, replyBytes: Int)
}

/// Observers added while den runs (metrics, once `den serve` knows its `--metrics` address).
/// Reading the list costs an atomic load while it is empty, and a lock once it is not.
package final class ObserverList<Observer: Sendable>: Sendable {
    private let present = Atomic<Bool>(false)
    private let list = Mutex<[Observer]>([])

    package init() {}

    package func add(_ observer: Observer) {
        list.withLock { $0.append(observer) }
        present.store(true, ordering: .releasing)
    }

    package var all: [Observer] {
        guard present.load(ordering: .acquiring) else { return [] }
        return list.withLock { $0 }
    }
}

/// The runtime's module call observers: its own (the slow-call warning, the time share), then
/// the ones added since.
package struct RuntimeCallObserver: ModuleCallObserver {
    let slowCalls: SlowCallWarning
    let timeShare: ModuleTimeShare
    let added: ObserverList<any ModuleCallObserver>
    let tracing: TracerSlot

    package init(slowCalls: SlowCallWarning, timeShare: ModuleTimeShare, added: ObserverList<any ModuleCallObserver>, tracing: TracerSlot) {
        self.slowCalls = slowCalls
        self.timeShare = timeShare
        self.added = added
        self.tracing = tracing
    }

    package func moduleCallBegins(_ call: ModuleCall) -> (any TraceSpan)? {
        tracing.tracer?.beginModuleCall(call, parent: CallTrace.parent)
    }

    package func moduleCallEnded(_ call: ModuleCall, took: Duration, result: ModuleCallResult) {
        slowCalls.moduleCallEnded(call, took: took, result: result)
        timeShare.moduleCallEnded(call, took: took, result: result)
        for observer in added.all { observer.moduleCallEnded(call, took: took, result: result) }
    }
}
