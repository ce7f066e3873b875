import Foundation
import Synchronization

/// Serialises one plugin's builder calls (den_module.h: never two calls at once for one
/// builder_ctx, and a plugin may share one context between routes), and remembers a call the
/// host gave up on: until that call returns, further builds fail at once instead of queueing
/// behind it forever.
final class BuilderGate: Sendable {
    private let lock = Mutex<Void>(())
    private let stalled = Mutex<String?>(nil)

    /// The call that has not returned yet, if the host gave up on one.
    var stalledCall: String? { stalled.withLock { $0 } }

    func markStalled(_ call: String) {
        stalled.withLock { $0 = call }
    }

    /// Runs a builder call; a call that finally returns clears the stall it caused.
    func run<T>(_ body: () -> T) -> T {
        let result = lock.withLock { _ in body() }
        stalled.withLock { $0 = nil }
        return result
    }
}
