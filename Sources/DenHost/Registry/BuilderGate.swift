import FoundationEssentials
import Synchronization

/// Serialises one plugin's builder calls (den_module.h: never two calls at once for one
/// builder_ctx, and a plugin may share one context between routes), and remembers a call the
/// host gave up on: until that call returns, further builds fail at once instead of queueing
/// behind it forever.
package final class BuilderGate: Sendable {
    /// Stands in for the gate of a module installed from its manifest until it loads
    /// (`RouteTarget.loaded()` gives its routes the one made then); no builder runs behind it.
    package static let notLoaded = BuilderGate()

    private let lock = Mutex<Void>(())
    private let stalled = Mutex<String?>(nil)

    package init() {}

    /// The call that has not returned yet, if the host gave up on one.
    package var stalledCall: String? { stalled.withLock { $0 } }

    /// The host gave up on `call` (see `ModuleCallRunner.run`'s `whenGivenUp`).
    package func markStalled(_ call: String) {
        stalled.withLock { $0 = call }
    }

    /// The call the host gave up on has returned after all.
    package func clearStall() {
        stalled.withLock { $0 = nil }
    }

    /// Runs one builder call, never two at once.
    package func run<T>(_ body: () -> T) -> T {
        lock.withLock { _ in body() }
    }
}
