import Foundation

/// Tells a caller how much of an answer's body has arrived (den_http_transport_get_progress):
/// at most every 100 ms, so a fast download pays one clock read per chunk and not a redraw, once
/// more with the whole count when the answer is complete, and never after `close`: the caller's
/// callback context lives only as long as its call.
final class ProgressReporter: @unchecked Sendable {
    static let interval: UInt64 = 100_000_000 // nanoseconds

    // Guarded by `lock`, which is held while the callback runs so that `close` waits for it.
    private let lock = NSLock()
    private let callback: @Sendable (Int64) -> Void
    private var closed = false
    private var lastTime: UInt64?
    private var lastCount: Int64 = -1

    init(_ callback: @escaping @Sendable (Int64) -> Void) {
        self.callback = callback
    }

    /// `count` bytes so far; `complete` when the body is whole (always told, unless told already).
    func received(_ count: Int, complete: Bool = false) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock {
            guard !closed, Int64(count) != lastCount else { return }
            if !complete, let lastTime, now &- lastTime < Self.interval { return }
            lastTime = now
            lastCount = Int64(count)
            callback(Int64(count))
        }
    }

    /// No call after this returns; one under way is waited for.
    func close() {
        lock.withLock { closed = true }
    }
}
