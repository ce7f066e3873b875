import CDenABI
import DenKit
import DenSupport
import FoundationEssentials
import DenPermissions

/// Routes every `den_host.call` to the `HostService` that answers the operation, on behalf of
/// the calling module. Thread-safe.
public final class ServiceHub: @unchecked Sendable {
    private let lock = Lock()
    private var services: [String: any HostService] = [:]
    /// Refuses what a calling module did not ask for, or was not granted (docs/PERMISSIONS.md).
    package let gate: PermissionGate
    /// Hear of each answered call of an installed module (metrics).
    package let observers = ObserverList<any ServiceCallObserver>()
    /// The tracer every call's span comes from, once den traces (`DenRuntime.trace(with:)`).
    package let tracing = TracerSlot()

    public init(services: [any HostService] = []) {
        gate = PermissionGate()
        services.forEach(register)
    }

    package init(gate: PermissionGate) {
        self.gate = gate
    }

    /// Adds a service; a later registration of the same operation replaces the earlier one.
    package func register(_ service: any HostService) {
        lock.withLock {
            for operation in service.operations { services[operation] = service }
        }
    }

    package var operations: [String] {
        lock.withLock { services.keys.sorted() }
    }

    /// Answers one call; any failure becomes a status and a message, never a crash.
    /// - Parameters:
    ///   - caller: the installed module calling, or nil before installation / after rejection.
    ///   - file: the plugin file, which names an uninstalled caller in its log lines.
    ///   - requestLength: the request's length when `request` was not copied (over the limit).
    public func call(_ operation: String, request: Data, requestLength: Int? = nil, caller: ServiceCaller?,
                     file: String? = nil) -> (status: den_status, body: Data) {
        // Checked before any service parses the request (docs/ABI.md, "Limits").
        let length = requestLength ?? request.count
        guard length <= WireLimits.maxServiceRequestBytes else {
            return (DEN_ERR_INVALID_ARGUMENT, Data("\(ModuleText.singleLine(operation, limit: 80)): the request is \(WireLimits.describe(bytes: length)); service requests are limited to \(WireLimits.describe(bytes: WireLimits.maxServiceRequestBytes))".utf8))
        }
        let findings = JSONPreflight.scan(request)
        if findings.tooDeep || findings.hasNull {
            let problem = findings.tooDeep ? JSONPreflight.tooDeep("the request is") : JSONPreflight.holdsNull("the request contains")
            return (DEN_ERR_INVALID_ARGUMENT, Data("\(ModuleText.singleLine(operation, limit: 80)): \(problem)".utf8))
        }
        // Until the registry has installed a module (and after it rejected one) it has no
        // namespace: only logging is allowed, so no data can land under a wrong or borrowed id.
        guard let caller else {
            guard operation == "log" else {
                return (DEN_ERR_INVALID_ARGUMENT, Data("\(operation): host services other than log are available once den_module_entry has returned and the host has installed the module, never to a rejected module".utf8))
            }
            return call(operation, request: request, caller: ServiceCaller(moduleID: file ?? "(unidentified plugin)"))
        }
        guard let service = lock.withLock({ services[operation] }) else {
            let known = operations.joined(separator: ", ")
            return (DEN_ERR_NOT_FOUND, Data("unknown host service '\(ModuleText.singleLine(operation, limit: 80))'; this host offers: \(known)".utf8))
        }
        // Under the module call bound on this thread: an isolated module's calls are answered on
        // the thread that waits for its worker, so they find their call span the same way.
        let span = tracing.tracer?.beginServiceCall(TracedService(operation: operation, moduleID: caller.moduleID), parent: CallTrace.parent)
        let answer: (status: den_status, body: Data) = CallTrace.with(span) { self.answer(service, operation, request: request, caller: caller) }
        if let span {
            span.set("den.request.bytes", .int(length))
            span.set("den.reply.bytes", .int(answer.body.count))
            span.end(error: answer.status == DEN_OK ? nil : DenStatusName.of(Int32(answer.status.rawValue)))
        }
        for observer in observers.all {
            observer.serviceCalled(operation, moduleID: caller.moduleID, status: answer.status, requestBytes: length, replyBytes: answer.body.count)
        }
        return answer
    }

    private func answer(_ service: any HostService, _ operation: String, request: Data, caller: ServiceCaller) -> (status: den_status, body: Data) {
        do {
            // http.get and exports.call are checked by their services, which know the host and
            // the export; these two need the permission whatever the request says.
            if caller.permissions != nil {
                if operation == "plugins.list" { try gate.check(.plugins, caller: caller) }
                if operation.hasPrefix("auth.") { try gate.check(.auth, caller: caller) }
            }
            return (DEN_OK, try service.handle(operation, request: request, caller: caller))
        } catch {
            let status: den_status = switch error.kind {
            case .invalidArgument: DEN_ERR_INVALID_ARGUMENT
            case .notFound: DEN_ERR_NOT_FOUND
            case .unavailable: DEN_ERR_SERVICE
            case .internalError: DEN_ERR_INTERNAL
            case .permissionDenied: DEN_ERR_PERMISSION
            case .versionMismatch: DEN_ERR_VERSION
            }
            return (status, Data(error.message.utf8))
        }
    }

    /// A `den_host` for one plugin file: its `ctx` identifies the plugin to the services.
    package func makeEndpoint(file: String) -> ServiceEndpoint {
        ServiceEndpoint(hub: self, file: file)
    }
}

/// The `den_host` handed to one plugin. Both live for the process lifetime: the plugin may keep
/// the pointer (den_module.h), so neither is ever freed.
package final class ServiceEndpoint: @unchecked Sendable {
    private let hub: ServiceHub
    private let lock = Lock()
    /// nil until the registry installs the module, and again if the host rejects it.
    private var caller: ServiceCaller?
    package let file: String
    /// `settings.declare` is answered here, not by the hub: it belongs to the plugin being
    /// loaded, which has no module id in the hub yet (Settings/SettingsRecorder.swift).
    package let settings = SettingsRecorder()
    package private(set) var host: UnsafePointer<den_host>!

    package init(hub: ServiceHub, file: String) {
        self.hub = hub
        self.file = file
        let host = UnsafeMutablePointer<den_host>.allocate(capacity: 1)
        host.initialize(to: den_host(
            abi_version: DEN_ABI_VERSION, abi_revision: DEN_ABI_REVISION,
            ctx: Unmanaged.passRetained(self).toOpaque(),
            call: { ctx, service, request, response in
                guard let ctx, let service, let response else { return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue) }
                let endpoint = Unmanaged<ServiceEndpoint>.fromOpaque(ctx).takeUnretainedValue()
                // A request over the limit is refused from its length alone, never copied.
                let copied = request.len > WireLimits.maxServiceRequestBytes
                    ? Data(count: 0) : OwnedBuffer.copy(request)
                let operation = String(cString: service)
                let (status, body) = operation == SettingsDeclaration.operation && !copied.isEmpty
                    ? endpoint.settings.declare(copied)
                    : endpoint.hub.call(operation, request: copied, requestLength: request.len,
                                        caller: endpoint.currentCaller.map {
                                            ServiceCaller(moduleID: $0.moduleID, session: CallContext.session, permissions: $0.permissions)
                                        },
                                        file: endpoint.file)
                response.pointee = OwnedBuffer.make(body)
                return Int32(status.rawValue)
            }))
        self.host = UnsafePointer(host)
    }

    /// From now on, calls are the module's, held to what its manifest asks for (`.nothing`
    /// without a manifest: such a module gets only what every module gets). nil leaves its
    /// calls unchecked: a module an embedder links in without declaring permissions
    /// (`installInProcess`), and the services' own specs. A module file never gets nil.
    package func attribute(to moduleID: String, permissions: ModulePermissions?) {
        lock.withLock { caller = ServiceCaller(moduleID: moduleID, session: nil, permissions: permissions) }
    }

    /// The host rejected the plugin (a failed entry, a duplicate id, a route conflict): its
    /// calls no longer count as any module's.
    package func revoke() {
        lock.withLock { caller = nil }
    }

    package var currentCaller: ServiceCaller? {
        lock.withLock { caller }
    }

    /// Stands in for the `den_host` of a module installed from its manifest until it loads
    /// (`RouteTarget.loaded()` gives its builders the real one); no module code ever receives it,
    /// and any call through it is refused.
    package nonisolated(unsafe) static let notLoadedHost: UnsafePointer<den_host> = {
        let host = UnsafeMutablePointer<den_host>.allocate(capacity: 1)
        host.initialize(to: den_host(abi_version: DEN_ABI_VERSION, abi_revision: DEN_ABI_REVISION, ctx: nil,
                                     call: { _, _, _, response in
            // An error comes with its message, as from any host.
            response?.pointee = OwnedBuffer.make(Data("the module is not loaded yet (den internal error)".utf8))
            return Int32(DEN_ERR_INTERNAL.rawValue)
        }))
        return UnsafePointer(host)
    }()
}
