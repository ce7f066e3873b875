import DenLibraryContracts
import DenPermissions

// The gate (DenPermissions) knows a caller by its module and manifest; the services here pass
// their `ServiceCaller`, and the loader turns a hold into a load error.

extension ServiceCaller {
    package var permissionCaller: PermissionCaller { PermissionCaller(moduleID: moduleID, declared: permissions) }
}

extension PermissionGate {
    package func check(_ permission: Permission, caller: ServiceCaller) throws(ServiceFailure) {
        try check(permission, caller: caller.permissionCaller)
    }

    package func permits(_ permission: Permission, caller: ServiceCaller) -> Bool {
        permits(permission, caller: caller.permissionCaller)
    }

    package func refuseUnnameable(_ host: String, caller: ServiceCaller, redirectedFrom asked: String?) -> ServiceFailure {
        refuseUnnameable(host, caller: caller.permissionCaller, redirectedFrom: asked)
    }
}

extension PermissionHold {
    /// The load error of a module held for permissions.
    package var cause: PluginLoadError.Cause { .permissionsHeld(reason: reason, fix: fix) }
}
