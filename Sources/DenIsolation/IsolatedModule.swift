import DenHost
import CDenABI
import DenExports
import DenKit
import DenSupport
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An isolated module on the host's side: the module file's worker (started again after a
/// crash), and the C functions that stand in for the module's builders, instances and exports, so
/// the rest of the host calls it exactly like an in-process module (docs/ISOLATION.md).
package final class IsolatedModule: RemoteExports, IsolatedHosting, @unchecked Sendable {
    package let filePath: String
    package let copyPath: String
    package let fileName: String
    /// The `den_host` the module's service calls are answered through (its `ctx` names the module).
    package let endpoint: ServiceEndpoint
    package let settings: IsolationSettings
    /// The file's content hash: what a quarantine names.
    package let contentHash: String
    private let state = Mutex<State>(State())
    private let startLock = Lock()

    package struct State {
        var worker: ModuleWorker?
        /// Bumped with every worker: an instance built by an earlier worker must be built again.
        var generation = 0
        var restarts = 0
        var crashes: [ContinuousClock.Instant] = []
        var lastEnd: String?
        var quarantine: String?
        var registration: WorkerRegistration?
        var moduleID: String?
        var retired = false
        /// The copy the next worker loads: `copyPath`, or after a rollback the previous version's.
        var activeCopy: String?
        /// Set by a hot swap: the version this one replaced, and when (see `workerEnded`).
        var previous: (copyPath: String, registration: WorkerRegistration?, version: String?)?
        var swappedAt: ContinuousClock.Instant?
        var rolledBackTo: String?
    }

    /// A crash this soon after a hot swap rolls the module back to the version it replaced.
    package static let rollbackWindow: Duration = .seconds(60)

    package init(filePath: String, copyPath: String, fileName: String, endpoint: ServiceEndpoint, settings: IsolationSettings,
         contentHash: String) {
        self.filePath = filePath
        self.copyPath = copyPath
        self.fileName = fileName
        self.endpoint = endpoint
        self.settings = settings
        self.contentHash = contentHash
    }

    /// What `den plugins` and About show.
    package struct Status: Sendable, Equatable {
        package var pid: Int32?
        package var restarts: Int
        package var sandbox: [String]
        package var quarantine: String?
        package var lastEnd: String?
        /// "1.0.0" once a crash soon after a hot swap rolled the module back to that version.
        package var rolledBackTo: String? = nil
    }

    package var status: Status {
        state.withLock {
            Status(pid: $0.worker?.end == nil ? $0.worker?.pid : nil, restarts: $0.restarts, sandbox: $0.worker?.sandbox ?? [],
                   quarantine: $0.quarantine, lastEnd: $0.lastEnd, rolledBackTo: $0.rolledBackTo)
        }
    }

    package var moduleName: String { state.withLock { $0.moduleID } ?? fileName }

    // MARK: Loading

    /// Starts the first worker, which runs the entry point, and replays what it registered through
    /// `registrar` with this module's stand-in builders and exports.
    package func register(into recorder: RegistrationRecorder) throws(WorkerFault) -> Int32 {
        let (worker, registration, status) = try startWorker()
        _ = worker
        state.withLock { $0.registration = registration; $0.moduleID = registration.id }
        let registrar = recorder.registrar.pointee
        guard status == DEN_OK.rawValue else { return status }
        guard let id = registration.id, let version = registration.version else { return status }
        var result = registrar.describe(registrar.ctx, id, version, registration.summary ?? "")
        for (index, route) in registration.routes.enumerated() where result == DEN_OK.rawValue {
            let context = Unmanaged.passRetained(RouteStandIn(module: self, index: UInt64(index))).toOpaque()
            result = registrar.add_route_with_flags(registrar.ctx, route.pattern, route.flags, Self.builder, context)
        }
        for export in registration.exports where result == DEN_OK.rawValue {
            result = registrar.add_export(registrar.ctx, export.name, export.signature, export.summary, Self.exportPlaceholder)
        }
        return result
    }

    /// The worker's own registrar problems come first: they are the module's mistakes.
    package var workerProblems: [String] { state.withLock { $0.registration?.problems ?? [] } }

    private func startWorker() throws(WorkerFault) -> (ModuleWorker, WorkerRegistration, Int32) {
        let copy = state.withLock { $0.activeCopy } ?? copyPath
        let launch = ModuleWorker.Launch(executable: settings.workerExecutable, modulePath: copy, sandbox: settings.sandbox,
                                         memoryLimit: settings.memoryLimit, readable: settings.readablePaths + [copy])
        let deadline = ContinuousClock.now + settings.callPolicy.timeout
        let worker = try ModuleWorker.start(launch, deadline: deadline) { [weak self] worker, end in
            self?.workerEnded(worker, end)
        }
        let frame: Frame
        do {
            // The entry point's calls (log, settings.declare) are answered while it runs.
            frame = try worker.channel.receive(deadline: deadline)
        } catch {
            worker.kill(because: ModuleWorker.describe(error))
            throw WorkerFault(message: "its worker failed while registering: \(worker.waitForEnd(upTo: .seconds(2))?.description ?? "no answer")")
        }
        var pending = frame
        while pending.kind == .service {
            do {
                try worker.channel.send(serve(pending), deadline: deadline)
                pending = try worker.channel.receive(deadline: deadline)
            } catch {
                worker.kill(because: ModuleWorker.describe(error))
                throw WorkerFault(message: "its worker failed while registering: \(worker.waitForEnd(upTo: .seconds(2))?.description ?? "no answer")")
            }
        }
        guard pending.kind == .registered, let registration = try? JSONDecoder().decode(WorkerRegistration.self, from: pending.body) else {
            worker.kill(because: "it sent no readable registration")
            throw WorkerFault(message: "its worker sent no readable registration")
        }
        state.withLock { state in
            state.worker = worker
            state.generation += 1
        }
        return (worker, registration, pending.status)
    }

    /// The live worker, started again if the last one ended (unless the file is quarantined).
    package func currentWorker() throws(WorkerFault) -> (ModuleWorker, Int) {
        startLock.lock()
        defer { startLock.unlock() }
        let (worker, generation) = state.withLock { ($0.worker, $0.generation) }
        var (quarantine, retired) = state.withLock { ($0.quarantine, $0.retired) }
        if let worker, worker.end == nil { return (worker, generation) }
        // Reaped but not counted yet: its crash is counted (a loop quarantined) before another
        // worker starts, or the count would miss it.
        if let ended = worker, !ended.endIsReported {
            _ = ended.waitForEnd(upTo: .seconds(10))
            (quarantine, retired) = state.withLock { ($0.quarantine, $0.retired) }
        }
        if retired { throw WorkerFault(message: "this version of the module was replaced") }
        if let quarantine {
            if settings.quarantine.isQuarantined(contentHash) { throw WorkerFault(message: quarantine) }
            // Released (`den modules release`): tried fresh.
            state.withLock { $0.quarantine = nil; $0.crashes = [] }
        }
        let (fresh, registration, status) = try startWorker()
        // After a rollback the previous version registers its own version string; its routes and
        // exports must still be the ones the host serves.
        let same = state.withLock { state in
            guard let known = state.registration else { return false }
            if state.rolledBackTo == nil { return known == registration }
            return known.id == registration.id && known.routes == registration.routes && known.exports == registration.exports
        }
        guard status == DEN_OK.rawValue, same else {
            fresh.kill(because: "it registered differently after a restart")
            throw WorkerFault(message: "its restarted worker registered differently than the first (status \(status)); restart den")
        }
        return state.withLock { state in
            state.restarts += 1
            return (fresh, state.generation)
        }
    }

    /// The watch thread's news: counts a crash (not a retirement), quarantines a crash loop, and
    /// starts the next worker at once so the next call finds it ready.
    private func workerEnded(_ worker: ModuleWorker, _ end: WorkerEnd) {
        let now = ContinuousClock.now
        var crashes = 0
        let (isCurrent, loop) = state.withLock { state -> (Bool, String?) in
            guard state.worker === worker, !state.retired else { return (false, nil) }
            state.lastEnd = end.description
            // A new version that crashes soon after its hot swap gives way to the one it replaced
            // (when that one serves the same routes and exports), once.
            if state.rolledBackTo == nil, let swappedAt = state.swappedAt, now - swappedAt < Self.rollbackWindow,
               let previous = state.previous, let before = previous.registration, let current = state.registration,
               before.id == current.id, before.routes == current.routes, before.exports == current.exports {
                state.activeCopy = previous.copyPath
                state.rolledBackTo = previous.version ?? "the previous version"
            }
            state.crashes = state.crashes.filter { now - $0 < settings.quarantine.window } + [now]
            crashes = state.crashes.count
            guard state.crashes.count >= settings.quarantine.crashes else { return (true, nil) }
            let message = "is quarantined: it crashed \(state.crashes.count) times within \(Int(settings.quarantine.window.components.seconds / 60)) minutes (last: \(end.description)). Fix the module and replace its file (den tries a new version fresh), or run `den modules release \(String(contentHash.prefix(12)))` to try this file again"
            state.quarantine = message
            return (true, message)
        }
        guard isCurrent else { return }
        if loop == nil {
            let minutes = Int(settings.quarantine.window.components.seconds / 60)
            let count = settings.quarantine.crashes < Int.max ? " (crash \(crashes) of \(settings.quarantine.crashes) within \(minutes) minutes before a quarantine)" : ""
            settings.onCrash?(moduleName, "\(end.description) (pid \(worker.pid)); den starts it again and restores its screens from their last snapshots\(count)")
        }
        if let loop {
            settings.quarantine.record(hash: contentHash, file: filePath, module: moduleName, reason: loop)
            settings.onQuarantine?(moduleName, loop)
            return
        }
        // Counted: the call that saw the crash answers now; the next worker starts meanwhile.
        worker.reportEnd()
        _ = try? currentWorker()
    }

    /// Called when this version replaced `older` in a hot swap: a crash soon after rolls back to it.
    package func replaced(_ older: IsolatedModule) {
        let previous = older.state.withLock { (older.copyPath, $0.registration, $0.registration?.version) }
        state.withLock { state in
            state.previous = previous
            state.swappedAt = .now
        }
    }

    /// Stops the worker for good: a hot swap replaced this version.
    package func retire() {
        let worker = state.withLock { state -> ModuleWorker? in
            state.retired = true
            return state.worker
        }
        worker?.retire()
    }

    // MARK: Calls

    /// The deadline of one call: a little inside the host's call limit, so that the worker is
    /// killed and the call answered with an error before the host would abandon the instance.
    package var callDeadline: ContinuousClock.Instant {
        let limit = settings.callPolicy.timeout
        return .now + max(limit - min(limit / 10, .milliseconds(200)), .milliseconds(1))
    }

    /// Answers one service call of the worker's through the module's own `den_host`.
    package func serve(_ frame: Frame) -> Frame {
        let host = endpoint.host!
        var response = den_owned(ptr: nil, len: 0, release: nil)
        let status = frame.name.withCString { name in
            OwnedBuffer.borrow(frame.body) { host.pointee.call(host.pointee.ctx, name, $0, &response) }
        }
        return Frame(.reply, status: status, body: OwnedBuffer.take(&response))
    }

    package func request(_ frame: Frame, on worker: ModuleWorker, state: (Int32, Data) -> Void = { _, _ in }) throws(WorkerFault) -> Frame {
        try worker.request(frame, deadline: callDeadline, serve: serve, state: state)
    }

    /// Builds route `index` in the live worker: the instance's id there.
    package struct BuildFailure: Error {
        var status: Int32
        var message: String
    }

    package func build(route index: UInt64, parameters: Data) -> Result<(UInt64, ModuleWorker, Int), BuildFailure> {
        let worker: ModuleWorker, generation: Int
        do { (worker, generation) = try currentWorker() } catch { return .failure(BuildFailure(status: Int32(DEN_ERR_INTERNAL.rawValue), message: error.message)) }
        do {
            let reply = try request(Frame(.build, ref: index, body: parameters), on: worker)
            guard reply.status == DEN_OK.rawValue else { return .failure(BuildFailure(status: reply.status, message: String(decoding: reply.body, as: UTF8.self))) }
            return .success((reply.ref, worker, generation))
        } catch {
            return .failure(BuildFailure(status: Int32(DEN_ERR_INTERNAL.rawValue), message: "crashed in its builder: \(error.message); den restarted it"))
        }
    }

    /// Calls an export in the worker (`den call`, `exports.call`).
    package func invoke(_ export: ModuleExport, _ values: [ExportValue]) -> Result<ExportValue, ExportCallFailure> {
        let body: Data
        do { body = try JSONEncoder().encode(ExportCallRequest(name: export.function, arguments: values)) } catch {
            return .failure(ExportCallFailure(.misbehaved, status: DEN_ERR_INTERNAL, "\(export.name): its arguments could not be sent"))
        }
        let reply: Frame
        do {
            let (worker, _) = try currentWorker()
            reply = try request(Frame(.export, name: export.function, body: body), on: worker)
        } catch {
            return .failure(ExportCallFailure(.misbehaved, status: DEN_ERR_INTERNAL, "\(export.name) did not answer: \(error.message); den restarted its worker"))
        }
        guard reply.status == DEN_OK.rawValue else {
            let text = ModuleText.singleLine(String(decoding: reply.body.prefix(WireLimits.maxErrorMessageBytes), as: UTF8.self), limit: WireLimits.maxErrorMessageBytes)
            return .failure(ExportCallFailure(reply.name == "failed" ? .failed : .misbehaved, status: reply.status, text))
        }
        var value = (try? JSONDecoder().decode(ExportCallAnswer.self, from: reply.body))?.value
        // JSON does not tell 2 from 2.0: the signature says which it is.
        if export.signature.result == .f64, case .i64(let number)? = value { value = .f64(Double(number)) }
        guard let value, value.type == export.signature.result else {
            return .failure(ExportCallFailure(.misbehaved, status: DEN_ERR_INTERNAL, "\(export.name): its worker answered with a result that is not a \(export.signature.result)"))
        }
        return .success(value)
    }

    // MARK: C stand-ins

    /// Stands in for every route's builder: `builder_ctx` is a `RouteStandIn`.
    package static let builder: den_builder_fn = { context, _, params, instance, api, error in
        guard let context, let instance, let api, let error else { return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue) }
        let route = Unmanaged<RouteStandIn>.fromOpaque(context).takeUnretainedValue()
        let parameters = OwnedBuffer.copy(params)
        switch route.module.build(route: route.index, parameters: parameters) {
        case .success(let (remote, worker, generation)):
            let standIn = InstanceStandIn(module: route.module, route: route.index, parameters: parameters,
                                          remote: remote, worker: worker, generation: generation)
            instance.pointee = Unmanaged.passRetained(standIn).toOpaque()
            api.pointee = UnsafePointer(instanceAPI)
            return Int32(DEN_OK.rawValue)
        case .failure(let failure):
            error.pointee = OwnedBuffer.make(failure.message)
            return failure.status
        }
    }

    /// Never called: an isolated module's exports are called through `invoke`.
    package static let exportPlaceholder: den_export_fn = {}

    package nonisolated(unsafe) static let instanceAPI: UnsafeMutablePointer<den_instance_api> = {
        let api = UnsafeMutablePointer<den_instance_api>.allocate(capacity: 1)
        api.initialize(to: den_instance_api(
            struct_size: UInt32(MemoryLayout<den_instance_api>.size), reserved: 0,
            handle: { instance, event, reply in
                InstanceStandIn.from(instance).handle(OwnedBuffer.copy(event), reply: reply!)
            },
            snapshot: { instance, state in
                InstanceStandIn.from(instance).snapshot(state!)
            },
            restore: { instance, state in
                InstanceStandIn.from(instance).restore(OwnedBuffer.copy(state))
            },
            destroy: { instance in
                Unmanaged<InstanceStandIn>.fromOpaque(instance!).takeRetainedValue().destroy()
            },
            // The worker keeps the module's state_version; the snapshot rides in each answer.
            state_version: nil))
        // Its instances carry the notice of a restart to the next screen.
        HostMadeInstances.register(UnsafePointer(api)) { InstanceStandIn.from($0).takeNotice() }
        return api
    }()
}

/// A route of an isolated module: the builder context of its stand-in builder. Lives for the
/// process lifetime, like any builder context.
package final class RouteStandIn: Sendable {
    package let module: IsolatedModule
    package let index: UInt64

    package init(module: IsolatedModule, index: UInt64) {
        self.module = module
        self.index = index
    }
}

extension IsolatedModule.Status {
    /// "isolated, pid 4242, 1 restart, sandbox: no_new_privs, seccomp, landlock".
    package var line: String {
        var parts = [HostingPolicy.Mode.isolated.rawValue]
        if let quarantine { return parts[0] + ", quarantined: the module \(quarantine)" }
        parts.append(pid.map { "pid \($0)" } ?? "no worker running")
        parts.append(restarts == 1 ? "1 restart" : "\(restarts) restarts")
        parts.append(sandbox.isEmpty ? "no sandbox" : "sandbox: \(sandbox.joined(separator: ", "))")
        if let lastEnd, restarts > 0 { parts.append("last crash: \(lastEnd)") }
        if let rolledBackTo { parts.append("rolled back to \(rolledBackTo) after a crash soon after its hot swap") }
        return parts.joined(separator: ", ")
    }
}

extension IsolatedModule {
    package var isQuarantined: Bool { state.withLock { $0.quarantine != nil } }

    package var worker: (pid: Int32?, restarts: Int) {
        let status = status
        return (status.pid, status.restarts)
    }

    package var hostingLine: String { status.line }

    package var traffic: (sent: Int, received: Int) {
        state.withLock { $0.worker?.channel.traffic } ?? (0, 0)
    }
}
