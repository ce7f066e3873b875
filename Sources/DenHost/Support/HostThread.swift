import CDenThreads
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Starts a detached thread. The host imports FoundationEssentials only, which has no `Thread`;
/// a module call or a file watcher needs a thread of its own (not a Dispatch worker) because it
/// may block for as long as it likes.
public enum HostThread {
    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(_ name: String, _ body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Runs `body` on a new thread named `name` (its first 15 bytes show in gdb and `top -H`).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(name, body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            den_name_current_thread(start.name)
            start.body()
            return nil
        }, start)
        guard created == 0 else {
            // Out of threads: nothing can run the body, and giving up silently would hang its caller.
            fatalError("den: cannot start a thread (\(String(cString: strerror(created)))); the system is out of threads or memory")
        }
        pthread_detach(thread)
    }

    /// Sleeps the calling thread.
    public static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
