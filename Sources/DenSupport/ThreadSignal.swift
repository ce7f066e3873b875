#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A counting semaphore on a pthread mutex and condition variable, timed on the monotonic clock.
/// Dispatch's semaphore would do, but importing Dispatch makes `den` load `libswiftDispatch.so`
/// for this one wait alone, a cost every start pays (docs/START_PATH.md, "What a fresh process
/// pays for").
package final class ThreadSignal: @unchecked Sendable {
    // Heap cells: pthread objects must not move, and a Swift stored property may.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Signals not yet taken by a wait; guarded by `mutex`.
    private var pending = 0

    package init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Lets one waiter through (now, or the next one to wait).
    package func signal() {
        pthread_mutex_lock(mutex)
        pending += 1
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits for a signal, however long it takes.
    package func wait() {
        pthread_mutex_lock(mutex)
        while pending == 0 { pthread_cond_wait(condition, mutex) }
        pending -= 1
        pthread_mutex_unlock(mutex)
    }

    /// Waits for a signal at most `duration` (none or less: only takes one already given, and
    /// at most a day: longer waits are a day); false when none came in time.
    package func wait(upTo duration: Duration) -> Bool {
        let bounded = min(max(duration, .zero), .seconds(86_400))
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = bounded.components
        let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while pending == 0 {
            // Spurious wake-ups loop; only the deadline ends the wait without a signal.
            // Anything but a wake-up (ETIMEDOUT, or EINVAL should the deadline ever be refused)
            // ends the wait rather than spinning.
            let status = pthread_cond_timedwait(condition, mutex, &deadline)
            if status != 0, pending == 0 { return false }
        }
        pending -= 1
        return true
    }
}
