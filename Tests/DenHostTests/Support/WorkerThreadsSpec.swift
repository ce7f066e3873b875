import DenHost
import Foundation
import Synchronization
import Testing

@Suite("Worker threads for module calls")
struct WorkerThreadsSpec {
    /// What one job saw of its thread: the kernel's thread id and name.
    private struct Seen: Sendable, Equatable {
        var thread: Int32
        var name: String
    }

    /// The kernel's id of the calling thread (`/proc/thread-self` is `<pid>/task/<tid>`).
    private static func gettid() -> Int32 {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        return Int32(target.split(separator: "/").last ?? "") ?? -1
    }

    private static func current() -> Seen {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
        return Seen(thread: gettid(), name: name.trimmingCharacters(in: .newlines))
    }

    /// Runs one job and waits until its thread is back among the idle ones.
    private static func runAndSettle(_ pool: WorkerThreads, name: String) -> Seen? {
        let seen = Mutex<Seen?>(nil)
        let done = DispatchSemaphore(value: 0)
        let idleBefore = pool.idleCount
        pool.run(name: name) {
            seen.withLock { $0 = current() }
            done.signal()
        }
        _ = done.wait(timeout: .now() + 10)
        let deadline = ContinuousClock.now + .seconds(10)
        while pool.idleCount < max(idleBefore, 1), ContinuousClock.now < deadline { HostThread.sleep(for: .milliseconds(1)) }
        return seen.withLock { $0 }
    }

    @Test("a job runs on a thread of its own, named as asked")
    func ownThread() throws {
        let pool = WorkerThreads(keepingIdle: 2)
        let seen = try #require(Self.runAndSettle(pool, name: "den about"))
        #expect(seen.thread != Self.gettid() && seen.thread > 0)
        #expect(seen.name == "den about")
    }

    @Test("calls one after another share one thread, renamed for each call")
    func reused() throws {
        let pool = WorkerThreads(keepingIdle: 2)
        let first = try #require(Self.runAndSettle(pool, name: "den about"))
        let second = try #require(Self.runAndSettle(pool, name: "den jogs"))
        #expect(second.thread == first.thread)
        #expect(second.name == "den jogs")
        #expect(pool.idleCount == 1)
    }

    @Test("a call that never returns keeps its thread; the next call gets another one")
    func blockedThreadIsNotReused() throws {
        let pool = WorkerThreads(keepingIdle: 2)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let stuck = Mutex<Int32>(0)
        pool.run(name: "den stuck") {
            stuck.withLock { $0 = Self.gettid() }
            started.signal()
            release.wait()
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        let next = try #require(Self.runAndSettle(pool, name: "den next"))
        #expect(next.thread != stuck.withLock { $0 })
        release.signal()
    }

    @Test("after a burst, only as many threads as allowed wait for work; the rest end")
    func idleCap() {
        let pool = WorkerThreads(keepingIdle: 2)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let threads = Mutex<Set<Int32>>([])
        for index in 0..<5 {
            pool.run(name: "den burst \(index)") {
                threads.withLock { _ = $0.insert(Self.gettid()) }
                started.signal()
                release.wait()
            }
        }
        for _ in 0..<5 { #expect(started.wait(timeout: .now() + 10) == .success) }
        #expect(threads.withLock { $0.count } == 5, "five calls at once need five threads")
        for _ in 0..<5 { release.signal() }
        let deadline = ContinuousClock.now + .seconds(10)
        while pool.idleCount < 2, ContinuousClock.now < deadline { HostThread.sleep(for: .milliseconds(1)) }
        HostThread.sleep(for: .milliseconds(50)) // time for a third thread to (wrongly) come back
        #expect(pool.idleCount == 2)
    }
}
