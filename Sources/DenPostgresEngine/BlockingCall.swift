import Dispatch
import DenLibraryContracts
import Synchronization

/// Runs postgres-nio's async calls for the synchronous `StorageEngine` protocol: the caller's
/// thread waits on a semaphore while the work runs on threads of its own.
///
/// Why not Swift's shared pool: a caller may itself be one of its threads (an HTTP handler
/// asking `auth`), and on a 2-core machine the pool has 2 threads; two callers blocked on work
/// queued behind them would deadlock. Every task here prefers `PostgresThreads`, so its
/// continuations never need the shared pool.
final class PostgresThreads: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "den.postgres", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Runs `body` and waits at most `limit`; past it the task is cancelled and the caller hears
    /// `timedOut`. `body`'s own errors are handed back as they are.
    func wait<T: Sendable>(atMost limit: Duration, _ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task(executorPreference: self) {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        if done.wait(timeout: .now() + .milliseconds(Int(limit / .milliseconds(1)))) == .timedOut {
            task.cancel()
            // A cancelled lease or query ends at once; the bound only guards against a stuck one.
            _ = done.wait(timeout: .now() + .seconds(5))
            throw BlockingTimeout()
        }
        return try outcome.withLock { $0 }!.get()
    }
}

/// The call outlasted its limit and was cancelled.
struct BlockingTimeout: Error {}
