@testable import DenHost
import Foundation
import Synchronization
import Testing

/// The one way den calls a module (`ModuleCallRunner`): on the caller's thread, timed by the one
/// watchdog thread of the process, given up the same way past the limit and on Ctrl-C. Ending a
/// one-shot process (`CallHandOff(ending:)`) is seen from outside, in RenderCallLimitEndToEndTests
/// and ExportsEndToEndTests.
@Suite("Module calls: on the caller's thread, one watchdog, one way to give up")
struct ModuleCallRunnerSpec {
    private let call = ModuleCall(moduleID: "nap", what: "handle(action 'hang')")

    /// The calling thread.
    private static func threadID() -> pthread_t { pthread_self() }

    /// The names of this process's threads (/proc/self/task/*/comm).
    private static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .newlines) }
    }

    @Test("a call runs right here, on the caller's thread, with the session bound for the call only, and returns its value")
    func callingThread() throws {
        let runner = ModuleCallRunner(policy: ModuleCallPolicy(timeout: .seconds(60)), session: UISessionID(9))
        let caller = Self.threadID()
        let (thread, session) = try runner.run(call) { (Self.threadID(), CallContext.session) }.get()
        #expect(thread == caller)
        #expect(session == UISessionID(9))
        #expect(CallContext.session == nil)
    }

    @Test("no thread is started per call: 1,000 calls all run on the caller's thread, and no thread of the module's name is ever alive")
    func noThreadPerCall() throws {
        // A thread per call would be named after the module ("den " + id, HostThread).
        let call = ModuleCall(moduleID: "threadless", what: "handle(appear)")
        let runner = ModuleCallRunner(policy: ModuleCallPolicy(timeout: .seconds(60)))
        let caller = Self.threadID()
        var threads = Set<pthread_t>()
        var namedAfterModule = 0
        for index in 0..<1_000 {
            let (thread, named) = try runner.run(call) { () -> (pthread_t, Int) in
                // Listing the threads costs more than the call: every 50th call looks.
                (Self.threadID(), index % 50 == 0 ? Self.threadNames().filter { $0.hasPrefix("den threadless") }.count : 0)
            }.get()
            threads.insert(thread)
            namedAfterModule += named
        }
        #expect(threads == [caller])
        #expect(namedAfterModule == 0)
        #expect(Self.threadNames().filter { $0 == "den watchdog" }.count == 1, "one watchdog thread per process")
    }

    @Test("past the limit the watchdog gives the call up once: the give-up action runs and the hand-off hears the error while the caller is still in the call; what the call returns late is discarded")
    func givenUp() throws {
        let handOff = CallHandOff()
        let heard = Mutex<[CallHandOff.GivenUp]>([])
        handOff.listen { call in heard.withLock { $0.append(call) } }
        let notices = Mutex(0), abandoned = Mutex(0), late = Mutex<[Int]>([])
        let runner = ModuleCallRunner(policy: ModuleCallPolicy(timeout: .milliseconds(600), slowNotice: .milliseconds(200)),
                                      handOff: handOff) { _, _ in notices.withLock { $0 += 1 } }
        let release = DispatchSemaphore(value: 0)
        let number = handOff.number()
        let caller = DispatchQueue(label: "stuck caller")
        let result = Mutex<Result<Int, ModuleCallRunner.GiveUp>?>(nil)
        caller.async {
            let outcome = runner.run(call, onAbandon: { abandoned.withLock { $0 += 1 } },
                                     lateResult: { (value: Int) in late.withLock { $0.append(value) } }) {
                release.wait()
                return 42
            }
            result.withLock { $0 = outcome }
        }
        // The hand-off hears of it while the caller is still stuck in the call.
        let deadline = Date().addingTimeInterval(30)
        while heard.withLock({ $0.isEmpty }), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let calls = heard.withLock { $0 }
        try #require(calls.count == 1)
        #expect(calls[0].number == number)
        #expect(calls[0].error.isStall)
        #expect(calls[0].error.description.contains("module 'nap' did not return from handle(action 'hang') within"))
        #expect(abandoned.withLock { $0 } == 1)
        #expect(notices.withLock { $0 } == 1)
        #expect(result.withLock { $0 } == nil, "the caller stays in the call")
        release.signal()
        caller.sync {}
        #expect(late.withLock { $0 } == [42], "the late result goes to lateResult, never to the caller")
        guard case .failure(.timedOut) = result.withLock({ $0 }) else {
            Issue.record("the caller gets the give-up once the call returns: \(String(describing: result.withLock { $0 }))")
            return
        }
        #expect(abandoned.withLock { $0 } == 1, "given up once")
    }

    @Test("Ctrl-C gives a call up through the same path, long before the limit: the watchdog polls the terminal's flag, the give-up action runs, the hand-off hears 'was interrupted'")
    func interrupted() throws {
        // As the terminal's SIGINT flag: set by "the handler", taken once by the watchdog's poll.
        let flag = Atomic<Bool>(false)
        let interruption = CallInterruption(checking: { flag.exchange(false, ordering: .sequentiallyConsistent) })
        let handOff = CallHandOff()
        let heard = Mutex<[CallHandOff.GivenUp]>([])
        handOff.listen { call in heard.withLock { $0.append(call) } }
        let abandoned = Mutex(0)
        let runner = ModuleCallRunner(policy: ModuleCallPolicy(timeout: .seconds(600)), handOff: handOff, interruption: interruption)
        let inCall = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let caller = DispatchQueue(label: "interrupted caller")
        let result = Mutex<Result<Int, ModuleCallRunner.GiveUp>?>(nil)
        caller.async {
            let outcome = runner.run(call, onAbandon: { abandoned.withLock { $0 += 1 } }) {
                inCall.signal()
                release.wait()
                return 7
            }
            result.withLock { $0 = outcome }
        }
        inCall.wait()
        flag.store(true, ordering: .sequentiallyConsistent) // Ctrl-C
        let deadline = Date().addingTimeInterval(30)
        while heard.withLock({ $0.isEmpty }), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let calls = heard.withLock { $0 }
        try #require(calls.count == 1)
        #expect(calls[0].error.description.contains("module 'nap' was interrupted in handle(action 'hang') after"), "\(calls[0].error)")
        #expect(abandoned.withLock { $0 } == 1)
        release.signal()
        caller.sync {}
        guard case .failure(.interrupted) = result.withLock({ $0 }) else {
            Issue.record("the caller gets the interrupt once the call returns: \(String(describing: result.withLock { $0 }))")
            return
        }
    }

    @Test("an interrupt pressed before a call is not for it")
    func interruptBefore() throws {
        let interruption = CallInterruption()
        interruption.interrupt()
        let runner = ModuleCallRunner(policy: ModuleCallPolicy(timeout: .seconds(60)), interruption: interruption)
        // Long enough for several watchdog rounds, should it wrongly see the interrupt.
        #expect(try runner.run(call) { Thread.sleep(forTimeInterval: 0.2); return 1 }.get() == 1)
    }
}
