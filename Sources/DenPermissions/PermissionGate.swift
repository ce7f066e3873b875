import DenKit
import DenLibraryContracts
import DenSupport
import Logging
import Synchronization

/// One thing a service call may need beyond the module's own data (docs/PERMISSIONS.md).
package enum Permission: Sendable, Hashable {
    /// `http.get` of this host (normalised: `HostPattern.normalise`).
    case http(String)
    /// `exports.call` of this export ("<module id>.<export name>").
    case export(String)
    /// The `auth.*` services.
    case auth
    /// `plugins.list`.
    case plugins

    /// The manifest key that grants it.
    package var name: String {
        switch self {
        case .http: "http"
        case .export: "exports"
        case .auth: "auth"
        case .plugins: "plugins"
        }
    }

    /// The permission with what it was for, as messages say it: "http (api.example.org)".
    package var described: String {
        switch self {
        case .http(let host): "http (\(ModuleText.singleLine(host, limit: 120)))"
        case .export(let name): "exports (\(ModuleText.singleLine(name, limit: 140)))"
        case .auth, .plugins: name
        }
    }

    /// What a manifest would write to ask for it.
    var manifestLine: String {
        switch self {
        case .http(let host): "\"http\": [\"\(ModuleText.singleLine(host, limit: 120))\"]"
        case .export(let name): "\"exports\": [\"\(ModuleText.singleLine(name, limit: 140))\"]"
        case .auth: "\"auth\": true"
        case .plugins: "\"plugins\": true"
        }
    }
}

extension ModulePermissions {
    package func allows(_ permission: Permission) -> Bool {
        switch permission {
        case .http(let host): allowsHTTP(host: host)
        case .export(let name): allowsExport(name)
        case .auth: auth
        case .plugins: plugins
        }
    }
}

/// Who is calling, as the gate needs it: the module and what its manifest asks for (nil for
/// den's own calls, never checked). DenHost's `ServiceCaller` gives it.
package struct PermissionCaller: Sendable {
    package var moduleID: String
    package var declared: ModulePermissions?

    package init(moduleID: String, declared: ModulePermissions?) {
        self.moduleID = moduleID
        self.declared = declared
    }
}

/// Enforces permissions at the service boundary, for modules in den's process and in workers
/// alike (a worker's service calls come back to den's `ServiceHub`). A call is allowed when the
/// module's manifest asks for it and, where the user's grants are known (`PermissionBook`), the
/// user granted it. A refusal is a `.permissionDenied` failure (`DEN_ERR_PERMISSION`), written to
/// the audit log once per module and permission, and counted.
package final class PermissionGate: Sendable {
    /// What the user granted each module, when the runtime keeps grants (`PermissionBook`); a
    /// module missing here is held to its manifest alone.
    private let granted = Mutex<[String: ModuleGrant]>([:])
    /// Whether the grants were read (`setGranted(_:)`), and why they could not be when not.
    private let state = Mutex<(loaded: Bool, unreadable: String?)>((false, nil))
    /// Reads the grants the first time a call needs one, for a runtime that did not read them
    /// at load (`den render`, `den call`: a screen drawn without opening storage).
    private let loadGrants = Mutex<(@Sendable () -> Void)?>(nil)
    /// Whether a module without a grant keeps nothing beyond what every module gets, once the
    /// grants were read (runtimes that record a grant for every module they load: den serve).
    /// Otherwise it is held to its manifest, as a module no such den has seen yet.
    private let strict = Mutex<Bool>(false)
    private let refusals = Mutex<[String: [String: Int]]>([:])
    private let logger: Logger?

    package init(logger: Logger? = nil) {
        var audit = logger
        // Audit lines are written at notice, whatever the log level (as the auth service's).
        if let level = audit?.logLevel, level > .notice { audit?.logLevel = .notice }
        self.logger = audit
    }

    /// Replaces what the user granted (the `PermissionBook` calls it whenever it reads them).
    package func setGranted(_ grants: [String: ModuleGrant]) {
        granted.withLock { $0 = grants }
        state.withLock { $0 = (true, nil) }
    }

    /// The grants cannot be read (storage down or damaged): until they can, a module keeps only
    /// what every module gets, and its calls that need more are refused saying why.
    package func setUnreadable(_ reason: String) {
        state.withLock { $0.unreadable = reason }
    }

    /// What reads the grants when a call first needs them, if they were not read at load.
    package func readGrantsWhenNeeded(_ read: @escaping @Sendable () -> Void) {
        loadGrants.withLock { $0 = read }
    }

    package func holdModulesWithoutGrant() {
        strict.withLock { $0 = true }
    }

    /// Reads the grants now if they are read on first need and were not yet. Calls at the same
    /// moment wait for the one read: none may pass on the manifest alone meanwhile.
    package func ensureGrantsRead() {
        guard !state.withLock({ $0.loaded }) else { return }
        loadGrants.withLock { reader in
            guard let read = reader, !state.withLock({ $0.loaded }) else { return }
            read()
            reader = nil
        }
    }

    package func setGranted(_ grant: ModuleGrant?, of moduleID: String) {
        granted.withLock { $0[moduleID] = grant }
    }

    package func granted(of moduleID: String) -> ModuleGrant? {
        granted.withLock { $0[moduleID] }
    }

    /// Throws `.permissionDenied` unless `caller` may have `permission`. A caller without
    /// declared permissions (nil: den's own calls) is never checked.
    package func check(_ permission: Permission, caller: PermissionCaller) throws(ServiceFailure) {
        guard let declared = caller.declared else { return }
        ensureGrantsRead()
        let grant = granted.withLock { $0[caller.moduleID] }
        let (loaded, unreadable) = state.withLock { ($0.loaded, $0.loaded ? nil : $0.unreadable) }
        let module = ModuleText.singleLine(caller.moduleID, limit: 80)
        if let grant {
            guard !grant.allows(permission, declared: declared) else { return }
        } else if loaded && strict.withLock({ $0 }) {
            if declared.allows(permission) {
                throw refuse(permission, caller: caller,
                             "\(module) may not use \(permission.described): it has no grant in this data folder (removed?); `den modules grant \(module)` grants what its manifest asks for")
            }
        } else if declared.allows(permission) && unreadable == nil {
            return
        }
        if declared.allows(permission), let unreadable {
            throw refuse(permission, caller: caller,
                         "\(module) may not use \(permission.described) now: den cannot read what was granted (\(unreadable)); it reads the grants again every few seconds")
        }
        if declared.allows(permission) {
            throw refuse(permission, caller: caller,
                         "\(module) may not use \(permission.described): it was not granted in this data folder (revoked?); `den modules grant \(module)` grants what its manifest asks for")
        }
        throw refuse(permission, caller: caller,
                     "\(module) may not use \(permission.described): its manifest does not ask for it. A module that needs it declares \"permissions\": {\(permission.manifestLine)} in its module.json (docs/PERMISSIONS.md), and the user agrees when it is installed\(Self.operatorHint(permission, module: module))")
    }

    /// An http.get of a host no permission can name (not ASCII, percent-encoded): refused,
    /// audited and counted like any other.
    package func refuseUnnameable(_ host: String, caller: PermissionCaller, redirectedFrom asked: String?) -> ServiceFailure {
        let module = ModuleText.singleLine(caller.moduleID, limit: 80), shown = ModuleText.singleLine(host, limit: 120)
        let redirect = asked.map { "http.get \(ModuleText.singleLine($0, limit: 200)) was redirected to \(shown): " } ?? ""
        return refuse(.http(host), caller: caller,
                      "\(redirect)\(module) may not use http (\(shown)): den compares hosts as it connects to them, so spell the host in ASCII (an international name in its xn-- form), without percent-encoding")
    }

    /// For a host: an operator may add it without a new module version.
    private static func operatorHint(_ permission: Permission, module: String) -> String {
        guard case .http(let host) = permission else { return "" }
        return "; an operator may also allow it here with `den modules grant \(module) --http \(ModuleText.singleLine(host, limit: 120))`"
    }

    /// Whether `check` would let the call through, without counting or auditing a refusal (what
    /// `exports.list` shows).
    package func permits(_ permission: Permission, caller: PermissionCaller) -> Bool {
        guard let declared = caller.declared else { return true }
        ensureGrantsRead()
        if let grant = granted.withLock({ $0[caller.moduleID] }) { return grant.allows(permission, declared: declared) }
        let (loaded, unreadable) = state.withLock { ($0.loaded, $0.unreadable) }
        if loaded && strict.withLock({ $0 }) { return false }
        return declared.allows(permission) && (loaded || unreadable == nil)
    }

    private func refuse(_ permission: Permission, caller: PermissionCaller, _ message: String) -> ServiceFailure {
        let first = refusals.withLock { counts in
            let before = counts[caller.moduleID]?[permission.name] ?? 0
            counts[caller.moduleID, default: [:]][permission.name] = before + 1
            return before == 0
        }
        if first {
            logger?.notice("audit permission.refused \(ModuleText.singleLine(caller.moduleID, limit: 80)) \(permission.described)",
                           metadata: ["event": "permission.refused", "module": .string(caller.moduleID),
                                      "permission": .string(permission.name)])
        }
        return ServiceFailure(.permissionDenied, message)
    }

    /// Refused calls so far, by module and permission name.
    package var refusedCalls: [String: [String: Int]] {
        refusals.withLock { $0 }
    }
}
