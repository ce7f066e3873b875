@testable import DenHost
import Foundation
import Synchronization
import Testing

/// `.watched` calls: on the calling thread, timed by the one watchdog thread.
@Suite("Watched calls: the calling thread, timed by the watchdog")
struct CallWatchdogSpec {
    private let call = ModuleCall(moduleID: "nap", what: "handle(action 'hang')")

    @Test("a watched call runs right here, with the session bound, and returns its value")
    func callingThread() throws {
        let handOff = CallHandOff()
        let runner = ModuleCallRunner(policy: ModuleCallPolicy(timeout: .seconds(60)), placement: .watched(handOff), session: UISessionID(9))
        let caller = pthread_self()
        let seen = runner.run(call, onAbandon: {}) { (pthread_self(), CallContext.session) }
        let (thread, session) = try seen.get()
        #expect(thread == caller)
        #expect(session == UISessionID(9))
    }

    @Test("past the limit the watchdog gives up once: the give-up action, the hand-off hears the error, the slow notice once, the result is late")
    func givenUp() throws {
        let handOff = CallHandOff()
        let heard = Mutex<[CallHandOff.GivenUp]>([])
        handOff.listen { call in heard.withLock { $0.append(call) } }
        let notices = Mutex(0), abandoned = Mutex(0), late = Mutex<[Int]>([])
        let runner = ModuleCallRunner(policy: ModuleCallPolicy(timeout: .milliseconds(600), slowNotice: .milliseconds(200)),
                                      placement: .watched(handOff)) { _, _ in notices.withLock { $0 += 1 } }
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
        #expect(calls[0].error.description.contains("module 'nap' did not return from handle(action 'hang')"))
        #expect(abandoned.withLock { $0 } == 1)
        #expect(notices.withLock { $0 } == 1)
        #expect(result.withLock { $0 } == nil, "the caller stays in the call")
        release.signal()
        caller.sync {}
        #expect(late.withLock { $0 } == [42])
        guard case .failure(.timedOut) = result.withLock({ $0 }) else {
            Issue.record("the caller gets the give-up once the call returns")
            return
        }
        #expect(abandoned.withLock { $0 } == 1, "given up once")
    }
}
