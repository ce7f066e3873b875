import CDenABI
import DenExports
import DenHost
import DenIsolation
import DenKit
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The worker's side (`den worker`): loads one module file, registers it, then serves the host's
/// requests on one thread until the host closes the socket. The module sees an ordinary
/// `den_host`, whose calls travel to the host as `service` frames (docs/ISOLATION.md).
package final class WorkerModuleHost: @unchecked Sendable {
    private let channel: FrameChannel
    /// The one thread that reads the socket. A service call from any other thread cannot be
    /// carried (the host listens only while it waits for a request of its own) and is refused.
    private let servingThread = pthread_self()
    private var moduleID = ""
    private var routes: [PluginRoute] = []
    private var exports: [String: PluginExport] = [:]
    private var instances: [UInt64: WorkerInstance] = [:]
    private var nextInstance: UInt64 = 1
    private var host: UnsafePointer<den_host>!

    private init(fd: Int32) {
        channel = FrameChannel(fd: fd)
        let host = UnsafeMutablePointer<den_host>.allocate(capacity: 1)
        host.initialize(to: den_host(abi_version: DEN_ABI_VERSION, abi_revision: DEN_ABI_REVISION,
                                     ctx: Unmanaged.passRetained(self).toOpaque(),
                                     call: { ctx, service, request, response in
            guard let ctx, let service, let response else { return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue) }
            let worker = Unmanaged<WorkerModuleHost>.fromOpaque(ctx).takeUnretainedValue()
            let (status, body) = worker.forward(String(cString: service), OwnedBuffer.copy(request))
            response.pointee = OwnedBuffer.make(body)
            return status
        }))
        self.host = UnsafePointer(host)
    }

    /// What the sandbox step reports: the layers that engaged, or why a required one did not.
    package struct SandboxOutcome: Sendable {
        package var layers: [String]
        package var problem: String?
        package init(layers: [String], problem: String?) {
            self.layers = layers
            self.problem = problem
        }
    }

    /// Runs the worker: `applySandbox` runs after the module and its libraries are loaded and
    /// before its entry point (so before any module code but its ELF constructors). Returns the
    /// process's exit status.
    package static func run(fd: Int32, modulePath: String, applySandbox: () -> SandboxOutcome) -> Int32 {
        let worker = WorkerModuleHost(fd: fd)
        let pid = getpid()
        func refuse(_ problem: String) -> Int32 {
            let hello = WorkerHello(pid: pid, sandbox: [], error: problem)
            try? worker.channel.send(Frame(.hello, ref: WorkerProtocol.version, body: (try? JSONEncoder().encode(hello)) ?? Data()))
            return 70
        }
        let library: DynamicLibrary
        do { library = try DynamicLibrary.open(modulePath) } catch { return refuse("dlopen failed: \(error.message)") }
        guard let entrySymbol = library.symbol(DEN_ENTRY_SYMBOL) else { return refuse("the file has no \(DEN_ENTRY_SYMBOL)") }
        let entry = unsafeBitCast(entrySymbol, to: den_module_entry_fn.self)
        // Prepared before the sandbox: libffi is opened when an export registers.
        _ = LibFFI.shared
        let sandbox = applySandbox()
        if let problem = sandbox.problem { return refuse(problem) }
        let hello = WorkerHello(pid: pid, sandbox: sandbox.layers)
        do {
            try worker.channel.send(Frame(.hello, ref: WorkerProtocol.version, body: try JSONEncoder().encode(hello)))
            let recorder = RegistrationRecorder(file: modulePath)
            let status = recorder.withRegistrar { entry(worker.host, $0) }
            worker.moduleID = recorder.id ?? ""
            worker.routes = recorder.routes
            worker.exports = Dictionary(recorder.exports.map { ($0.function, $0) }, uniquingKeysWith: { a, _ in a })
            let registration = WorkerRegistration(
                id: recorder.id, version: recorder.version, summary: recorder.summary,
                routes: recorder.routes.map { .init(pattern: $0.pattern, flags: $0.requiresLogin ? UInt32(DEN_ROUTE_REQUIRES_LOGIN.rawValue) : 0) },
                exports: recorder.exports.map { .init(name: $0.function, signature: $0.signature.description, summary: $0.summary) },
                problems: recorder.problems)
            try worker.channel.send(Frame(.registered, status: status, body: try JSONEncoder().encode(registration)))
            while true { try worker.serve(worker.channel.receive()) }
        } catch let failure as ChannelFailure {
            // The host closed its end: it is done with this worker.
            return failure == .closed ? 0 : 71
        } catch {
            return 72
        }
    }

    /// A module's `den_host.call`, carried to the host and answered there.
    private func forward(_ operation: String, _ document: Data) -> (Int32, Data) {
        guard pthread_equal(pthread_self(), servingThread) != 0 else {
            return (Int32(DEN_ERR_UNSUPPORTED.rawValue), Data("\(operation): an isolated module calls host services only from the thread of a builder, handle or export call (docs/ISOLATION.md)".utf8))
        }
        do {
            let reply = try request(Frame(.service, name: operation, body: document))
            return (reply.status, reply.body)
        } catch {
            // The host is gone: nothing more will be asked of this process.
            exit(0)
        }
    }

    /// Sends a request and serves the host's requests nested inside it until its reply comes.
    private func request(_ frame: Frame) throws(ChannelFailure) -> Frame {
        try channel.send(frame)
        while true {
            let incoming = try channel.receive()
            if incoming.kind == .reply { return incoming }
            try serve(incoming)
        }
    }

    private func reply(_ status: Int32, ref: UInt64 = 0, name: String = "", _ body: Data = Data()) throws(ChannelFailure) {
        try channel.send(Frame(.reply, status: status, ref: ref, name: name, body: body))
    }

    private static let unknownInstance = Data("no such instance in this worker".utf8)

    /// Answers one of the host's requests. Under a trace, a crash of the module's code names the
    /// trace on standard error (den's log), so an operator finds the request that killed the worker.
    private func serve(_ frame: Frame) throws(ChannelFailure) {
        guard !frame.trace.isEmpty else { return try answer(frame) }
        let note = "module '\(moduleID)' crashed its worker (pid \(getpid())) in a \(frame.kind) call of trace \(frame.trace)"
        try CrashNote.during(note) { () throws(ChannelFailure) in try answer(frame) }
    }

    private func answer(_ frame: Frame) throws(ChannelFailure) {
        let ok = Int32(DEN_OK.rawValue)
        switch frame.kind {
        case .build:
            guard frame.ref < UInt64(routes.count) else { return try reply(Int32(DEN_ERR_NOT_FOUND.rawValue), Data("no route \(frame.ref) in this worker".utf8)) }
            let route = routes[Int(frame.ref)]
            var instance: UnsafeMutableRawPointer?
            var api: UnsafePointer<den_instance_api>?
            var error = den_owned(ptr: nil, len: 0, release: nil)
            let status = OwnedBuffer.borrow(frame.body) { route.build(route.context, host, $0, &instance, &api, &error) }
            guard status == ok else { return try reply(status, Data(BoundedTake.errorText(&error).utf8)) }
            guard let instance, let api else {
                return try reply(Int32(DEN_ERR_INTERNAL.rawValue), Data("reported success from its builder but returned no instance (set *self and *api on DEN_OK)".utf8))
            }
            let functions: InstanceFunctions
            do { functions = try InstanceFunctions.read(api) } catch {
                if error == .missingRequired { InstanceFunctions.field(\.destroy, of: api)?(instance) }
                return try reply(Int32(DEN_ERR_VERSION.rawValue), Data("returned an instance API table \(error.text)".utf8))
            }
            let id = nextInstance
            nextInstance += 1
            instances[id] = WorkerInstance(pointer: instance, functions: functions)
            try reply(ok, ref: id)
        case .handle:
            guard let instance = instances[frame.ref] else { return try reply(Int32(DEN_ERR_NOT_FOUND.rawValue), Self.unknownInstance) }
            var answer = den_owned(ptr: nil, len: 0, release: nil)
            let status = OwnedBuffer.borrow(frame.body) { instance.functions.handle(instance.pointer, $0, &answer) }
            guard status == ok else { return try reply(status, Data(BoundedTake.errorText(&answer).utf8)) }
            let (bytes, _) = BoundedTake.take(&answer, upTo: WireLimits.maxReplyBytes + 1)
            guard let snapshot = instance.functions.snapshot else { return try reply(ok, bytes) }
            // The state after every event, in the same frame, so the host can restore the screen
            // after a crash. One too large to carry counts as none kept. An unchanged
            // state_version (revision 4) sends the bytes taken last time without asking again.
            let version = instance.functions.stateVersion?(instance.pointer)
            if let version, let last = instance.last, last.version == version {
                return try channel.send(Frame(.handled, status: last.status, ref: frame.ref, body: HandledBody.make(reply: bytes, state: last.state)))
            }
            var state = den_owned(ptr: nil, len: 0, release: nil)
            var stateStatus = snapshot(instance.pointer, &state)
            var stateBytes = Data()
            if stateStatus == ok {
                let (taken, length) = BoundedTake.take(&state, upTo: WorkerProtocol.maxStateBytes)
                if length <= WorkerProtocol.maxStateBytes { stateBytes = taken } else { stateStatus = Int32(DEN_ERR_UNSUPPORTED.rawValue) }
            } else {
                _ = BoundedTake.errorText(&state)
            }
            if let version { instances[frame.ref]?.last = (version, stateStatus, stateBytes) }
            try channel.send(Frame(.handled, status: stateStatus, ref: frame.ref, body: HandledBody.make(reply: bytes, state: stateBytes)))
        case .snapshot:
            guard let instance = instances[frame.ref] else { return try reply(Int32(DEN_ERR_NOT_FOUND.rawValue), Self.unknownInstance) }
            guard let snapshot = instance.functions.snapshot else { return try reply(Int32(DEN_ERR_UNSUPPORTED.rawValue)) }
            var state = den_owned(ptr: nil, len: 0, release: nil)
            let status = snapshot(instance.pointer, &state)
            guard status == ok else { return try reply(status, Data(BoundedTake.errorText(&state).utf8)) }
            try reply(ok, OwnedBuffer.take(&state))
        case .restore:
            guard let instance = instances[frame.ref] else { return try reply(Int32(DEN_ERR_NOT_FOUND.rawValue), Self.unknownInstance) }
            guard let restore = instance.functions.restore else { return try reply(Int32(DEN_ERR_UNSUPPORTED.rawValue)) }
            instances[frame.ref]?.last = nil
            try reply(OwnedBuffer.borrow(frame.body) { restore(instance.pointer, $0) })
        case .destroy:
            if let instance = instances.removeValue(forKey: frame.ref) { instance.functions.destroy(instance.pointer) }
        case .export:
            let call: ExportCallRequest
            do { call = try JSONDecoder().decode(ExportCallRequest.self, from: frame.body) } catch {
                return try reply(Int32(DEN_ERR_INVALID_ARGUMENT.rawValue), name: "misbehaved", Data("the export request was not readable".utf8))
            }
            guard let export = exports[call.name] else {
                return try reply(Int32(DEN_ERR_NOT_FOUND.rawValue), name: "unknownExport", Data("no export '\(call.name)' in this worker".utf8))
            }
            // JSON does not tell 100 from 100.0: the signature says which the export takes.
            let bound = export.bound(to: moduleID, host: host)
            let values: [ExportValue]
            do { values = try ExportArguments.check(call.arguments, for: bound) } catch {
                return try reply(error.status, name: "misbehaved", Data(error.message.utf8))
            }
            switch ExportInvoker.invoke(bound, values) {
            case .success(let value):
                try reply(ok, (try? JSONEncoder().encode(ExportCallAnswer(result: value))) ?? Data())
            case .failure(let failure):
                try reply(failure.status, name: failure.kind == .failed ? "failed" : "misbehaved", Data(failure.message.utf8))
            }
        case .hello, .registered, .service, .reply, .handled:
            // Only the host's requests come this way: anything else means the two disagree.
            throw .malformed("the host sent a \(frame.kind) frame where a request belongs")
        }
    }
}

/// One instance the worker built: its functions, and the state it sent after its last event with
/// the `state_version` it had then (revision 4).
private struct WorkerInstance {
    package let pointer: UnsafeMutableRawPointer
    package let functions: InstanceFunctions
    package var last: (version: UInt64, status: Int32, state: Data)?
}
