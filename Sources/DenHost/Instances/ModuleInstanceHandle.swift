import CDenABI
import DenKit
import DenSupport
import FoundationEssentials
import Synchronization

/// The host's side of one live module instance. Calls into it are serialised (den_module.h) and
/// run under a `ModuleCallRunner`: a call the host gives up on abandons the instance for good.
/// The instance is destroyed, freeing its whole VIPER stack, when the handle goes away — unless
/// it was abandoned, because its code may still be running.
package final class ModuleInstanceHandle: @unchecked Sendable {
    package let moduleID: String
    /// The pattern of the route that built it (`jogs/:id`), for the calls' metrics.
    package let routePattern: String
    private let pointer: UnsafeMutableRawPointer
    private let functions: InstanceFunctions
    private let lock = Lock()
    private let abandonedCall = Mutex<ModuleCall?>(nil)
    /// The last snapshot and the `state_version` it was taken at (revision 4): while the number
    /// stays, the instance's state is unchanged and its snapshot is not taken again.
    private let lastSnapshot = Mutex<(version: UInt64, state: Data?)?>(nil)
    /// Calls that could change the instance's state (`handle`, `restore`) so far, and the last
    /// snapshot a session save took with the count it was taken at (`savedSnapshot`).
    private let calls = Atomic<UInt64>(0)
    private let lastSaved = Mutex<(calls: UInt64, state: Data?)?>(nil)

    /// What giving up a builder means (the stall error's last words).
    static let builderGivenUp = "the host gave up on it; this module's screens open again once it returns"
    /// What giving up a `handle` call means.
    static let handleGivenUp = "the host gave up on it and will never call this instance again"

    /// True once the host gave up on a call into this instance.
    package var isAbandoned: Bool { abandonedCall.withLock { $0 != nil } }

    /// Calls a route's builder with the matched parameters.
    static func build(_ target: RouteTarget, request: BuildRequest,
                      runner: ModuleCallRunner = ModuleCallRunner()) throws(ModuleCallError) -> ModuleInstanceHandle {
        let target = try target.loaded() // a module installed from its manifest loads now
        func fail(_ status: den_status, _ message: String) -> ModuleCallError {
            ModuleCallError(moduleID: target.moduleID, status: Int32(status.rawValue), message: message, isHostFinding: true)
        }
        let call = ModuleCall(moduleID: target.moduleID, what: "the builder of route '\(ModuleText.singleLine(request.route, limit: 200))'",
                              kind: .build, pattern: target.route.pattern)
        if let stalled = target.gate.stalledCall {
            throw fail(DEN_ERR_INTERNAL, "cannot build now: \(stalled) has not returned yet (the host gave up waiting for it); this module's screens open again once it returns, or after den restarts")
        }
        let body: Data
        do { body = try WireFormat.encode(request) } catch { throw fail(DEN_ERR_INTERNAL, "could not be sent its build request (\(error))") }
        let gate = target.gate
        let outcome = runner.run(call, status: \.status, onAbandon: { gate.markStalled(call.what) },
                                 consequence: Self.builderGivenUp, lateResult: { (late: BuildOutcome) in
            // The builder returned after the host gave up: free what it built, reopen the module.
            if late.status == DEN_OK.rawValue, let instance = late.instance, let api = late.api,
               let destroy = InstanceFunctions.field(\.destroy, of: api) {
                destroy(instance)
            }
            gate.clearStall()
        }) {
            let route = target.route
            var instance: UnsafeMutableRawPointer?
            var api: UnsafePointer<den_instance_api>?
            var error = den_owned(ptr: nil, len: 0, release: nil)
            // den_module.h: a builder is never called concurrently for the same builder_ctx.
            let status = gate.run {
                OwnedBuffer.borrow(body) { params in route.build(route.context, target.host, params, &instance, &api, &error) }
            }
            return BuildOutcome(status: status, instance: instance, api: api, message: BoundedTake.errorText(&error))
        }
        let built: BuildOutcome
        switch outcome {
        case .success(let value): built = value
        case .failure(let giveUp):
            // A builder has no instance yet: its module builds again once it returns (BuildGate).
            throw ModuleCallRunner.error(for: call, giveUp, consequence: builderGivenUp)
        }
        guard built.status == DEN_OK.rawValue else {
            throw ModuleCallError(moduleID: target.moduleID, status: built.status, message: built.message)
        }
        guard let instance = built.instance, let api = built.api else {
            throw fail(DEN_ERR_INTERNAL, "reported success from its builder but returned no instance (set *self and *api on DEN_OK)")
        }
        let functions: InstanceFunctions
        do { functions = try InstanceFunctions.read(api) } catch {
            // A table too small to hold destroy can only be leaked.
            if error == .missingRequired { InstanceFunctions.field(\.destroy, of: api)?(instance) }
            throw fail(DEN_ERR_VERSION, "returned an instance API table \(error.text)")
        }
        return ModuleInstanceHandle(moduleID: target.moduleID, routePattern: target.route.pattern, pointer: instance, functions: functions)
    }

    private init(moduleID: String, routePattern: String, pointer: UnsafeMutableRawPointer, functions: InstanceFunctions) {
        self.routePattern = routePattern
        self.moduleID = moduleID
        self.pointer = pointer
        self.functions = functions
    }

    deinit {
        // An abandoned instance may still be inside one of its functions: leak it rather than
        // free memory that code is using.
        if !isAbandoned { functions.destroy(pointer) }
    }

    /// Sends an event under the default call policy.
    package func handle(_ event: ModuleEvent) throws(ModuleCallError) -> ModuleReply {
        try handle(event, runner: ModuleCallRunner())
    }

    func handle(_ event: ModuleEvent, runner: ModuleCallRunner) throws(ModuleCallError) -> ModuleReply {
        try handle(document: event, describing: Self.describe(event), runner: runner)
    }

    /// Sends a field's change event (only fields with `changes` produce one).
    func handle(_ change: FieldChange, runner: ModuleCallRunner) throws(ModuleCallError) -> ModuleReply {
        try handle(document: change, describing: "change '\(ModuleText.singleLine(change.field, limit: 80))'", runner: runner)
    }

    private func handle(document: some WireDocument, describing what: String,
                        runner: ModuleCallRunner) throws(ModuleCallError) -> ModuleReply {
        let call = ModuleCall(moduleID: moduleID, what: "handle(\(what))", kind: .handle, pattern: routePattern)
        if let earlier = abandonedCall.withLock({ $0 }) {
            throw ModuleCallError(moduleID: moduleID, status: Int32(DEN_ERR_INTERNAL.rawValue),
                                  message: "is not called again: the host gave up on its \(earlier.what)", isStall: true)
        }
        let body: Data
        do { body = try WireFormat.encode(document) } catch {
            throw ModuleCallError(moduleID: moduleID, status: Int32(DEN_ERR_INTERNAL.rawValue), message: "\(error)")
        }
        let pointer = UnsafeSendablePointer(pointer), handle = functions.handle, lock = lock
        calls.add(1, ordering: .relaxed)
        let abandon: @Sendable () -> Void = { self.abandonedCall.withLock { $0 = call } }
        let outcome = runner.run(call, status: \.status, onAbandon: abandon, consequence: Self.handleGivenUp) {
            var reply = den_owned(ptr: nil, len: 0, release: nil)
            let status = lock.withLock {
                OwnedBuffer.borrow(body) { handle(pointer.value, $0, &reply) }
            }
            guard status == DEN_OK.rawValue else { return HandleOutcome(status: status, error: BoundedTake.errorText(&reply)) }
            // One byte past the limit is enough to know the reply is too large.
            let (bytes, length) = BoundedTake.take(&reply, upTo: WireLimits.maxReplyBytes + 1)
            return HandleOutcome(status: status, reply: bytes, replyLength: length)
        }
        let answer: HandleOutcome
        switch outcome {
        case .success(let value): answer = value
        case .failure(let giveUp):
            throw ModuleCallRunner.error(for: call, giveUp, consequence: Self.handleGivenUp)
        }
        guard answer.status == DEN_OK.rawValue else {
            throw ModuleCallError(moduleID: moduleID, status: answer.status, message: answer.error)
        }
        var reply = try ReplyReader.read(answer.reply, length: answer.replyLength, moduleID: moduleID)
        // An isolated module's screen brought back after its worker crashed says so, once.
        if let notice = HostMadeInstances.notice(table: functions.table, instance: self.pointer) {
            reply.screen.elements.insert(.banner(Banner(.warning, notice)), at: 0)
        }
        return reply
    }

    /// The instance's state for a hot swap or a session save, or nil when it keeps none. An
    /// instance with `state_version` is not asked again while that number stays the same.
    package func snapshot() throws(ModuleCallError) -> Data? {
        guard !isAbandoned, let snapshot = functions.snapshot else { return nil }
        let pointer = pointer, stateVersion = functions.stateVersion
        var state = den_owned(ptr: nil, len: 0, release: nil)
        var version: UInt64?
        var reused: Data??
        let status: Int32 = lock.withLock {
            version = stateVersion?(pointer)
            if let version, let last = lastSnapshot.withLock({ $0 }), last.version == version {
                reused = .some(last.state)
                return Int32(DEN_OK.rawValue)
            }
            return snapshot(pointer, &state)
        }
        if let reused { return reused }
        guard status == DEN_OK.rawValue else {
            let message = BoundedTake.errorText(&state)
            if status == DEN_ERR_UNSUPPORTED.rawValue { return nil }
            throw ModuleCallError(moduleID: moduleID, status: status, message: message)
        }
        let bytes = OwnedBuffer.take(&state)
        if let version { lastSnapshot.withLock { $0 = (version, bytes) } }
        return bytes
    }

    /// The instance's state for a session save: as `snapshot()`, except that an instance without
    /// `state_version` that the host has not called since its last save is not asked again. Its
    /// state changes in its calls (den_module.h, "state_version"); a screen below the top gets
    /// none, so a step that changes one screen snapshots that one only.
    package func savedSnapshot() throws(ModuleCallError) -> Data? {
        guard functions.stateVersion == nil else { return try snapshot() }
        let count = calls.load(ordering: .relaxed)
        if let last = lastSaved.withLock({ $0 }), last.calls == count { return last.state }
        let state = try snapshot()
        lastSaved.withLock { $0 = (count, state) }
        return state
    }

    /// The instance's `state_version` (revision 4), or nil when its table has none.
    package func stateVersion() -> UInt64? {
        guard !isAbandoned, let stateVersion = functions.stateVersion else { return nil }
        let pointer = pointer
        return lock.withLock { stateVersion(pointer) }
    }

    /// Restores state from `snapshot()`; false when the instance could not use it.
    @discardableResult
    package func restore(_ state: Data) -> Bool {
        restoreOutcome(state) == .restored
    }

    /// What `restore` did: hot swap tells a refused state (the screen starts fresh, and says so)
    /// from an instance that keeps none (`DEN_ERR_UNSUPPORTED` or no function: rebuilt from its route).
    enum RestoreOutcome: Equatable {
        case restored, keepsNoState, refused(Int32)
    }

    func restoreOutcome(_ state: Data) -> RestoreOutcome {
        guard !isAbandoned else { return .refused(Int32(DEN_ERR_INTERNAL.rawValue)) }
        guard let restore = functions.restore else { return .keepsNoState }
        calls.add(1, ordering: .relaxed)
        let status = lock.withLock { OwnedBuffer.borrow(state) { restore(pointer, $0) } }
        lastSnapshot.withLock { $0 = nil } // a restored instance is snapshot afresh
        if status == DEN_OK.rawValue { return .restored }
        return status == DEN_ERR_UNSUPPORTED.rawValue ? .keepsNoState : .refused(status)
    }

    private static func describe(_ event: ModuleEvent) -> String {
        switch event {
        case .appear: "appear"
        case .action(let id, _): "action '\(ModuleText.singleLine(id, limit: 80))'"
        }
    }
}

/// What a builder call left behind, carried back from the call's thread.
private struct BuildOutcome: @unchecked Sendable {
    // The pointers are the plugin's; they are only read after the call returned.
    var status: Int32
    var instance: UnsafeMutableRawPointer?
    var api: UnsafePointer<den_instance_api>?
    var message: String
}

/// What a `handle` call left behind, carried back from the call's thread.
private struct HandleOutcome: Sendable {
    var status: Int32
    var error = ""
    var reply = Data()
    var replyLength = 0
}

/// A plugin pointer handed to the call's thread; the instance lock serialises its use.
private struct UnsafeSendablePointer<P: _Pointer>: @unchecked Sendable {
    let value: P
    init(_ value: P) { self.value = value }
}
