import CDenThreads
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Starts a detached thread. The host imports FoundationEssentials only, which has no `Thread`.
/// For the host's long-lived threads, which may block for as long as they like: the call
/// watchdog (one per process), a session's lane (`SessionLane`), a file watcher, a worker's
/// supervisor. Module calls never get one: they run on their caller's thread (`ModuleCallRunner`).
public enum HostThread {
    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(_ name: String, _ body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// The system would not start another thread (out of threads or memory): `body` never runs.
    public struct StartFailure: Error, Equatable, CustomStringConvertible {
        /// `pthread_create`'s error number (EAGAIN: a limit on threads, or no memory for a stack).
        package let code: Int32

        package init(code: Int32) {
            self.code = code
        }

        public var description: String {
            "the system would not start another thread (\(String(cString: strerror(code)))): it is out of threads or memory; "
                + "close other programs, or raise the limit on processes (ulimit -u) and the memory limit (ulimit -v)"
        }
    }

    /// Runs `body` on a new thread named `name` (its first 15 bytes show in gdb and `top -H`).
    /// - Throws: `StartFailure` when no thread could be started; `body` is then released unrun,
    ///   and the caller decides what that means (a module call fails with the reason).
    /// - Parameter stackSize: the thread's stack in bytes; nil for the system's default (the
    ///   stack limit, `ulimit -s`), which any thread that runs module code needs.
    package static func start(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) throws(StartFailure) {
        try start(name: name, creating: { thread, entry, argument in
            guard let stackSize else { return pthread_create(thread, nil, entry, argument) }
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setstacksize(&attributes, stackSize)
            return pthread_create(thread, &attributes, entry, argument)
        }, body)
    }

    /// `start` with the thread creation passed in, so a spec can make it fail as a system out of
    /// threads would (root is not held to `ulimit -u`, so no real limit can be set in a test).
    package static func start(name: String, creating create: (UnsafeMutablePointer<pthread_t>, @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?, UnsafeMutableRawPointer) -> Int32,
                      _ body: @escaping @Sendable () -> Void) throws(StartFailure) {
        let start = Unmanaged.passRetained(Start(name, body))
        var thread = pthread_t()
        let created = create(&thread, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            den_name_current_thread(start.name)
            start.body()
            return nil
        }, start.toOpaque())
        guard created == 0 else {
            start.release()
            throw StartFailure(code: created)
        }
        pthread_detach(thread)
    }

    /// Sleeps the calling thread.
    package static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
