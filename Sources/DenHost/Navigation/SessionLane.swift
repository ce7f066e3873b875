import DenSupport
import Synchronization

/// Runs one UI session's steps, one at a time, on a thread of the session's own (one per
/// session, not per call), for a front-end whose own thread must stay free while a module call
/// hangs: `den run` keeps reading the keyboard, a spec waits for the view. The step's module
/// calls run on the lane's thread (`ModuleCallRunner` starts none), as `den serve`'s run on its
/// session's queue (`BrowserSession`).
///
/// When the watchdog gives up a call of a step (past the limit, or Ctrl-C), the lane hears of it
/// (`CallHandOff`), takes the step from the stuck thread (`NavigationSession.takeStalledStep`),
/// finishes it on a fresh thread, which becomes the lane, and answers the waiting `perform` with
/// it. The stuck thread leaves once its call returns; its step commits nothing.
package final class SessionLane: Sendable {
    package let session: NavigationSession

    private final class Job: Sendable {
        let work: @Sendable (NavigationSession) -> SessionView
        private let answer = Mutex<SessionView?>(nil)
        private let done = ThreadSignal()

        init(_ work: @escaping @Sendable (NavigationSession) -> SessionView) {
            self.work = work
        }

        func answer(_ view: SessionView) {
            answer.withLock { $0 = view }
            done.signal()
        }

        func wait() -> SessionView {
            done.wait()
            return answer.withLock { $0! }
        }
    }

    private struct State {
        /// Counts lane threads: a thread of an earlier generation was left in a stuck call.
        var generation = 0
        /// Where the current lane thread waits for work.
        var inbox = ThreadSignal()
        var queued: [Job] = []
        var running: Job?
    }

    private let state = Mutex(State())

    /// - Throws: `HostThread.StartFailure` when the lane's thread could not be started.
    package init(session: NavigationSession, handOff: CallHandOff) throws(HostThread.StartFailure) {
        self.session = session
        let inbox = state.withLock { $0.inbox }
        try HostThread.start(name: "den session") { [self] in drain(generation: 0, inbox: inbox) }
        handOff.listen { [weak self] call in self?.callGivenUp(call) }
    }

    /// A lane for a new session of `runtime`.
    package convenience init(runtime: DenRuntime, interruption: CallInterruption = CallInterruption(),
                             onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)? = nil) throws(HostThread.StartFailure) {
        let handOff = CallHandOff()
        try self.init(session: runtime.makeSession(handOff: handOff, interruption: interruption, onSlowCall: onSlowCall), handOff: handOff)
    }

    /// Runs `step` on the lane and waits for its view: the step's own, or, when the watchdog
    /// gave up one of its calls, the recovered one.
    package func perform(_ step: @escaping @Sendable (NavigationSession) -> SessionView) -> SessionView {
        let job = Job(step)
        let inbox = state.withLock { state in
            state.queued.append(job)
            return state.inbox
        }
        inbox.signal()
        return job.wait()
    }

    package func open(_ route: String) -> SessionView { perform { $0.open(route) } }
    package func replace(_ route: String) -> SessionView { perform { $0.replace(route) } }
    package func back() -> SessionView { perform { $0.back() } }
    package func send(action: String, fields: [String: String]) -> SessionView { perform { $0.send(action: action, fields: fields) } }

    private func drain(generation: Int, inbox: ThreadSignal) {
        while true {
            inbox.wait()
            guard let job = state.withLock({ state -> Job? in
                guard state.generation == generation, !state.queued.isEmpty else { return nil }
                state.running = state.queued.removeFirst()
                return state.running
            }) else {
                if state.withLock({ $0.generation != generation }) { return }
                continue
            }
            let view = job.work(session)
            // Answered here only while this thread is still the lane: after a stall, the
            // recovery answered, and this thread, back from its call at last, leaves.
            let current = state.withLock { state -> Bool in
                guard state.generation == generation else { return false }
                state.running = nil
                return true
            }
            guard current else { return }
            job.answer(view)
        }
    }

    /// The watchdog gave up a call of the running step (on its thread: nothing here blocks).
    /// A fresh thread takes the step over, answers it, and becomes the lane.
    private func callGivenUp(_ call: CallHandOff.GivenUp) {
        do throws(HostThread.StartFailure) {
            try HostThread.start(name: "den session") { [self] in
                // Taken under the lane's lock, so the stuck thread cannot answer in between.
                guard let (stalled, job, generation, inbox) = state.withLock({ state -> (NavigationSession.StalledStep, Job?, Int, ThreadSignal)? in
                    // nil: the call returned in time after all, and its step answers by itself.
                    guard let stalled = session.takeStalledStep(call) else { return nil }
                    state.generation += 1
                    state.inbox = ThreadSignal()
                    let job = state.running
                    state.running = nil
                    return (stalled, job, state.generation, state.inbox)
                }) else { return }
                job?.answer(session.recover(stalled))
                // Work queued behind the stuck step is this thread's now.
                for _ in 0..<state.withLock({ $0.queued.count }) { inbox.signal() }
                drain(generation: generation, inbox: inbox)
            }
        } catch {
            // No thread for the recovery: the stuck step goes on once its call returns.
        }
    }
}
