@testable import DenHost
import Foundation
import Testing

/// Where module calls run. The alarm that ends the process is seen from outside, in
/// RenderCallLimitEndToEndTests; here, everything that keeps the process alive.
@Suite("Call placement: a thread per call, or the calling thread under the call alarm", .serialized)
struct CallPlacementSpec {
    private let ending = ProcessEnding(status: 1, consequence: "the test process would end here") { "Error: \($0)\n" }
    private let call = ModuleCall(moduleID: "about", what: "the builder of route 'about'")

    private func runner(_ placement: CallPlacement, timeout: Duration = .seconds(60)) -> ModuleCallRunner {
        ModuleCallRunner(policy: ModuleCallPolicy(timeout: timeout), placement: placement, session: UISessionID(7))
    }

    @Test("by default each call runs on a thread of its own")
    func ownThread() throws {
        let caller = pthread_self()
        let ranOn = runner(.ownThread).run(call) { pthread_self() }
        #expect(try ranOn.get() != caller)
    }

    @Test("on the calling thread, the call runs right here, with the session bound, and returns its value")
    func callingThread() throws {
        let caller = pthread_self()
        let seen = runner(.callingThread(ending)).run(call) { (pthread_self(), CallContext.session) }
        let (thread, session) = try seen.get()
        #expect(thread == caller)
        #expect(session == UISessionID(7))
        #expect(CallContext.session == nil, "bound for the call only")
    }

    @Test("a call made from inside a call on the calling thread gets a thread of its own: the alarm guards one call at a time")
    func nestedCallGetsAThread() throws {
        let caller = pthread_self()
        let runner = runner(.callingThread(ending))
        let threads = runner.run(call) { () -> (pthread_t, pthread_t?) in
            let inner = runner.run(ModuleCall(moduleID: "main", what: "an export")) { pthread_self() }
            return (pthread_self(), try? inner.get())
        }
        let (outer, inner) = try threads.get()
        #expect(outer == caller)
        #expect(inner != nil && inner != caller)
    }

    @Test("an alarm disarmed when the call returns never goes off, and the next call can arm it again")
    func disarmed() throws {
        let caller = pthread_self()
        // Long enough that no preemption of this thread between arming and disarming reaches it
        // (that would end the whole test process), short enough to wait out.
        let runner = runner(.callingThread(ending), timeout: .milliseconds(500))
        #expect(try runner.run(call) { pthread_self() }.get() == caller)
        Thread.sleep(forTimeInterval: 1.5) // three limits: an alarm left armed would have ended this process
        #expect(try runner.run(call) { pthread_self() }.get() == caller, "armed again, so on the calling thread again")
    }

    @Test("the alarm refuses a second arming, a limit that is not above zero, and arms again once disarmed")
    func arming() {
        #expect(CallAlarm.arm(after: .seconds(60), message: "first", status: 1))
        #expect(!CallAlarm.arm(after: .seconds(60), message: "second", status: 1), "one alarm per process")
        CallAlarm.disarm()
        #expect(!CallAlarm.arm(after: .zero, message: "none", status: 1))
        #expect(CallAlarm.arm(after: .seconds(60), message: "again", status: 1))
        CallAlarm.disarm()
    }
}
