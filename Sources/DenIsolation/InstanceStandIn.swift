import DenHost
import CDenABI
import DenKit
import FoundationEssentials
import Synchronization

/// An instance of an isolated module on the host's side: the `self` of the stand-in instance API.
/// It keeps what the host needs to bring the instance back after a crash: the route and parameters
/// it was built from, and its state after its last event (the snapshot hot swap uses).
package final class InstanceStandIn: @unchecked Sendable {
    package let module: IsolatedModule
    package let route: UInt64
    package let parameters: Data
    // The host calls an instance's functions one at a time (den_module.h): no lock is needed
    // for these, except that `notice` is taken by the host after the call.
    private var remote: UInt64
    private var worker: ModuleWorker
    private var generation: Int
    private var lastState: Data?
    /// True while `lastState` is the snapshot the worker took after the instance's last call (sent
    /// with the answer to an event, or asked for): then `snapshot` needs no round trip.
    private var stateIsCurrent = false
    private let notice = Mutex<String?>(nil)

    /// The banner a screen brought back after a crash shows.
    package static let restoredNotice = "This module restarted after a crash; this screen was restored from its last saved state."
    package static let restartedFreshNotice = "This module restarted after a crash; this screen could not keep its state and was opened afresh."

    package init(module: IsolatedModule, route: UInt64, parameters: Data, remote: UInt64, worker: ModuleWorker, generation: Int) {
        self.module = module
        self.route = route
        self.parameters = parameters
        self.remote = remote
        self.worker = worker
        self.generation = generation
    }

    package static func from(_ pointer: UnsafeMutableRawPointer?) -> InstanceStandIn {
        Unmanaged<InstanceStandIn>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// The notice to show above the next screen, once.
    package func takeNotice() -> String? { notice.withLock { value in defer { value = nil }; return value } }

    /// Builds the instance again in the live worker and restores its last state, when the worker
    /// it lived in has ended. Returns the notice to show, or nil when nothing had to be done.
    private func revive() throws(WorkerFault) -> String? {
        let (live, liveGeneration) = try module.currentWorker()
        if live === worker, liveGeneration == generation, worker.end == nil { return nil }
        let built = try module.request(Frame(.build, ref: route, body: parameters), on: live)
        guard built.status == DEN_OK.rawValue else {
            throw WorkerFault(message: "could not open this screen again after a restart: \(String(decoding: built.body, as: UTF8.self))")
        }
        remote = built.ref
        worker = live
        generation = liveGeneration
        stateIsCurrent = false
        guard let state = lastState else { return Self.restoredNotice }
        let restored: Frame
        do {
            restored = try module.request(Frame(.restore, ref: remote, body: state), on: live)
        } catch {
            // The restore itself ended the worker: that state would do it again, at every step of
            // this screen, until the module is quarantined for everyone. Drop it; open the screen fresh.
            lastState = nil
            _ = try revive()
            return Self.restartedFreshNotice
        }
        guard restored.status == DEN_OK.rawValue else {
            lastState = nil
            return Self.restartedFreshNotice
        }
        return Self.restoredNotice
    }

    package func handle(_ event: Data, reply: UnsafeMutablePointer<den_owned>) -> Int32 {
        let started = ContinuousClock.now
        do {
            if let revived = try revive() { notice.withLock { $0 = revived } }
        } catch {
            reply.pointee = OwnedBuffer.make("could not be restarted: \(error.message)")
            return Int32(DEN_ERR_INTERNAL.rawValue)
        }
        do {
            // Until a snapshot arrives with the answer, the instance's state is not known here.
            stateIsCurrent = false
            let answer = try module.request(Frame(.handle, ref: remote, body: event), on: worker) { status, state in
                if status == DEN_OK.rawValue { lastState = state; stateIsCurrent = true }
                else if status == DEN_ERR_UNSUPPORTED.rawValue { lastState = nil }
            }
            reply.pointee = OwnedBuffer.make(answer.body)
            return answer.status
        } catch {
            // The worker is gone. With time left in the call, bring this screen back now; after a
            // hang the host's call limit is near, so the next step brings it back (and says so).
            let restored: String
            if ContinuousClock.now - started > module.settings.callPolicy.timeout / 2 {
                restored = lastState == nil ? "den restarted it and opens this screen again at your next step"
                    : "den restarted it and restores this screen from its last snapshot at your next step"
            } else {
                do {
                    let hadState = lastState != nil
                    let revived = try revive()
                    restored = revived == Self.restartedFreshNotice ? "den restarted it, but this screen could not keep its state and was opened afresh"
                        : hadState ? "den restarted it and restored this screen from its last snapshot" : "den restarted it and opened this screen again"
                } catch let again {
                    restored = "den could not restart it (\(again.message))"
                }
            }
            reply.pointee = OwnedBuffer.make("crashed while handling the event (\(error.message)); \(restored)")
            return Int32(DEN_ERR_INTERNAL.rawValue)
        }
    }

    package func snapshot(_ state: UnsafeMutablePointer<den_owned>) -> Int32 {
        // The snapshot that came with the last event's answer is the state now (saving a browser
        // session after each step asks for it): no round trip.
        if stateIsCurrent, worker.end == nil, let lastState {
            state.pointee = OwnedBuffer.make(lastState)
            return Int32(DEN_OK.rawValue)
        }
        if worker.end == nil, let answer = try? module.request(Frame(.snapshot, ref: remote), on: worker) {
            if answer.status == DEN_OK.rawValue { lastState = answer.body; stateIsCurrent = true }
            state.pointee = OwnedBuffer.make(answer.body)
            return answer.status
        }
        // The worker ended: the state after the last event is what there is.
        guard let lastState else { return Int32(DEN_ERR_UNSUPPORTED.rawValue) }
        state.pointee = OwnedBuffer.make(lastState)
        return Int32(DEN_OK.rawValue)
    }

    package func restore(_ state: Data) -> Int32 {
        do {
            _ = try revive()
            stateIsCurrent = false
            let answer = try module.request(Frame(.restore, ref: remote, body: state), on: worker)
            if answer.status == DEN_OK.rawValue { lastState = state }
            return answer.status
        } catch {
            return Int32(DEN_ERR_INTERNAL.rawValue)
        }
    }

    package func destroy() {
        if worker.end == nil { worker.post(Frame(.destroy, ref: remote)) }
    }
}
