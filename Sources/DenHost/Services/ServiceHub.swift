import CDenABI
import DenKit
import Foundation

/// Routes every `den_host.call` to the `HostService` that answers the operation, on behalf of
/// the calling module. Thread-safe.
public final class ServiceHub: @unchecked Sendable {
    private let lock = NSLock()
    private var services: [String: any HostService] = [:]

    public init(services: [any HostService] = []) {
        services.forEach(register)
    }

    /// Adds a service; a later registration of the same operation replaces the earlier one.
    public func register(_ service: any HostService) {
        lock.withLock {
            for operation in service.operations { services[operation] = service }
        }
    }

    public var operations: [String] {
        lock.withLock { services.keys.sorted() }
    }

    /// Answers one call; any failure becomes a status and a message, never a crash.
    public func call(_ operation: String, request: Data, caller: ServiceCaller) -> (status: den_status, body: Data) {
        guard let service = lock.withLock({ services[operation] }) else {
            let known = operations.joined(separator: ", ")
            return (DEN_ERR_NOT_FOUND, Data("unknown host service '\(operation)'; this host offers: \(known)".utf8))
        }
        do {
            return (DEN_OK, try service.handle(operation, request: request, caller: caller))
        } catch {
            let status: den_status = switch error.kind {
            case .invalidArgument: DEN_ERR_INVALID_ARGUMENT
            case .notFound: DEN_ERR_NOT_FOUND
            case .unavailable: DEN_ERR_SERVICE
            case .internalError: DEN_ERR_INTERNAL
            }
            return (status, Data(error.message.utf8))
        }
    }

    /// A `den_host` for one plugin: its `ctx` identifies the plugin to the services.
    func makeEndpoint(caller: String) -> ServiceEndpoint {
        ServiceEndpoint(hub: self, caller: caller)
    }
}

/// The `den_host` handed to one plugin. Both live for the process lifetime: the plugin may keep
/// the pointer (den_module.h), so neither is ever freed.
final class ServiceEndpoint: @unchecked Sendable {
    private let hub: ServiceHub
    private let lock = NSLock()
    private var caller: ServiceCaller
    private(set) var host: UnsafePointer<den_host>!

    init(hub: ServiceHub, caller: String) {
        self.hub = hub
        self.caller = ServiceCaller(moduleID: caller)
        let host = UnsafeMutablePointer<den_host>.allocate(capacity: 1)
        host.initialize(to: den_host(
            abi_version: DEN_ABI_VERSION, reserved: 0,
            ctx: Unmanaged.passRetained(self).toOpaque(),
            call: { ctx, service, request, response in
                guard let ctx, let service, let response else { return Int32(DEN_ERR_INVALID_ARGUMENT.rawValue) }
                let endpoint = Unmanaged<ServiceEndpoint>.fromOpaque(ctx).takeUnretainedValue()
                let (status, body) = endpoint.hub.call(String(cString: service), request: OwnedBuffer.copy(request),
                                                       caller: endpoint.currentCaller)
                response.pointee = OwnedBuffer.make(body)
                return Int32(status.rawValue)
            }))
        self.host = UnsafePointer(host)
    }

    /// Calls made before the module described itself are attributed to its file name.
    func attribute(to moduleID: String) {
        lock.withLock { caller = ServiceCaller(moduleID: moduleID) }
    }

    var currentCaller: ServiceCaller {
        lock.withLock { caller }
    }
}
