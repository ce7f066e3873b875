import CDenThreads
import Synchronization

/// Threads for module calls, each kept for a later call once its call returns. A thread per call
/// cost every call a thread start, a fresh malloc arena and a thread exit, about a third of a
/// millisecond on this machine (docs/PERFORMANCE.md, "Worker threads"); `den render about`
/// makes two calls. A call that never returns keeps its thread for good, as before: the pool
/// simply starts another one for the next call.
public final class WorkerThreads: Sendable {
    /// The threads every `ModuleCallRunner` shares.
    public static let shared = WorkerThreads(keepingIdle: 8)

    private final class Worker: Sendable {
        struct Job: Sendable {
            var name: String
            var body: @Sendable () -> Void
        }

        let wake = ThreadSignal()
        let job: Mutex<Job?>

        init(_ first: Job) { job = Mutex(first) }
    }

    private let idle = Mutex<[Worker]>([])
    private let keepingIdle: Int

    /// - Parameter keepingIdle: how many threads may wait for work at once; one more that
    ///   finishes a call ends (a burst of calls in `den serve` does not keep its threads).
    public init(keepingIdle: Int) {
        self.keepingIdle = keepingIdle
    }

    /// How many threads wait for a call now.
    public var idleCount: Int { idle.withLock { $0.count } }

    /// Runs `body` on a waiting thread, or on a new one named `name` when none waits. Each call
    /// renames its thread (the first 15 bytes show in gdb and `top -H`).
    public func run(name: String, _ body: @escaping @Sendable () -> Void) {
        let job = Worker.Job(name: name, body: body)
        if let worker = idle.withLock({ $0.popLast() }) {
            worker.job.withLock { $0 = job }
            worker.wake.signal()
            return
        }
        let worker = Worker(job)
        HostThread.start(name: name) { [self] in serve(worker) }
    }

    /// A worker's life: run its job, then wait to be given the next one, unless enough threads
    /// already wait.
    private func serve(_ worker: Worker) {
        var first = true
        while true {
            if !first { worker.wake.wait() }
            guard let job = worker.job.withLock({ job in defer { job = nil }; return job }) else { continue }
            if !first { den_name_current_thread(job.name) }
            first = false
            job.body()
            let kept = idle.withLock { idle in
                guard idle.count < keepingIdle else { return false }
                idle.append(worker)
                return true
            }
            if !kept { return }
        }
    }
}
