import CDenABI
import CDenKitStamp
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Exports a Swift module through the C ABI. A plugin needs only:
///
/// ```swift
/// @_cdecl("den_module_entry")
/// public func denModuleEntry(host: UnsafeRawPointer?, registrar: UnsafeRawPointer?) -> Int32 {
///     DenModule.entry(host: host, registrar: registrar, module: myModuleDefinition)
/// }
/// ```
public enum DenModule {
    /// The ABI version this DenKit speaks (also exported as the `den_abi_version` symbol).
    public static var abiVersion: UInt32 { den_kit_abi_version() }
    /// The toolchain this DenKit was built with (exported as `den_toolchain`).
    public static var toolchain: String { String(cString: den_kit_toolchain()) }

    public static func entry(host: UnsafeRawPointer?, registrar: UnsafeRawPointer?, module: ModuleDefinition) -> Int32 {
        guard let host, let registrar else { return DEN_ERR_INVALID_ARGUMENT.rawValue32 }
        let hostPointer = host.assumingMemoryBound(to: den_host.self)
        let registry = registrar.assumingMemoryBound(to: den_registrar.self).pointee
        guard hostPointer.pointee.abi_version == DEN_ABI_VERSION else { return DEN_ERR_VERSION.rawValue32 }
        guard let describe = registry.describe, let addRoute = registry.add_route else {
            return DEN_ERR_INVALID_ARGUMENT.rawValue32
        }
        let status = describe(registry.ctx, module.id, module.version, module.summary)
        guard status == DEN_OK.rawValue32 else { return status }
        let services = HostServices(hostPointer)
        if !module.settings.isEmpty {
            let declaration = SettingsDeclaration(settings: module.settings)
            // A module's own bad declaration is its author's bug: refuse to load, saying why.
            if let problem = declaration.problem {
                HostLog(services).log(.error, "module '\(module.id)' declares its settings wrongly: \(problem)")
                return DEN_ERR_INVALID_ARGUMENT.rawValue32
            }
            // The host records (and, if it must, refuses) the declaration itself; an older host
            // without the service refuses the call, and the module still loads without settings.
            _ = try? services.call(SettingsDeclaration.operation, declaration, as: Empty.self)
        }
        // A guarded route on a host without guards would be open to anyone: refuse to load.
        let guarded = module.routes.filter(\.requiresLogin).map(\.pattern)
        let addGuarded = hostPointer.pointee.abi_revision >= 1 ? registry.add_route_with_flags : nil
        if !guarded.isEmpty, addGuarded == nil {
            HostLog(services).log(.error, "module '\(module.id)' needs route guards for \(guarded.joined(separator: ", ")), which this host does not offer (ABI revision \(hostPointer.pointee.abi_revision), guards need 1); update den")
            return DEN_ERR_VERSION.rawValue32
        }
        for route in module.routes {
            // Retained for the process lifetime: the host may build this route at any time.
            let context = Unmanaged.passRetained(RouteBuilderBox(route: route, host: services)).toOpaque()
            let status = if route.requiresLogin, let addGuarded {
                addGuarded(registry.ctx, route.pattern, UInt32(DEN_ROUTE_REQUIRES_LOGIN.rawValue), routeBuilderTrampoline, context)
            } else {
                addRoute(registry.ctx, route.pattern, routeBuilderTrampoline, context)
            }
            guard status == DEN_OK.rawValue32 else { return status }
        }
        return registerExports(module, host: hostPointer, registrar: registry, services: services)
    }
}

extension den_status {
    var rawValue32: Int32 { Int32(bitPattern: rawValue) }
}

/// Status code for an error thrown by module code.
func status(for error: any Error) -> den_status {
    switch error {
    case ModuleError.invalidParameter, is DecodingError: DEN_ERR_INVALID_ARGUMENT
    case ModuleError.unsupported: DEN_ERR_UNSUPPORTED
    case is HostServiceError: DEN_ERR_SERVICE
    default: DEN_ERR_INTERNAL
    }
}

func message(for error: any Error) -> String {
    error is DecodingError ? WireFormat.describe(error) : String(describing: error)
}
