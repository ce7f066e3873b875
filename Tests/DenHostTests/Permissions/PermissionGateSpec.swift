import CDenABI
@testable import DenHost
import DenKit
import DenLibraryContracts
import DenTestSupport
import Foundation
import Testing
import DenPermissions

/// The gate at the service boundary (docs/PERMISSIONS.md, "Enforcement"): each call that
/// reaches past the module is refused without its permission, with DEN_ERR_PERMISSION and a
/// message naming it, and goes through with it.
@Suite("Permissions at the service boundary")
struct PermissionGateSpec {
    /// A stand-in service: answers `{}` for the operations named, so only the gate can refuse.
    struct Answering: HostService {
        var operations: [String]
        func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data { Data("{}".utf8) }
    }

    let log = CapturedLog()
    let hub: ServiceHub
    let storage = InMemoryStorageEngine()

    init() {
        hub = ServiceHub(gate: PermissionGate(logger: log.logger))
        hub.register(Answering(operations: ["plugins.list", "auth.login", "auth.logout", "auth.register", "auth.change_password", "auth.reset_password"]))
        hub.register(HTTPService(gate: hub.gate))
        hub.register(StorageService(engine: storage))
    }

    func call(_ operation: String, _ request: String, as module: String = "probe", _ permissions: ModulePermissions) -> (den_status, String) {
        let (status, body) = hub.call(operation, request: Data(request.utf8),
                                      caller: ServiceCaller(moduleID: module, session: nil, permissions: permissions))
        return (status, String(decoding: body, as: UTF8.self))
    }

    @Test("auth and plugins: refused without, answered with", arguments: ["plugins.list", "auth.login", "auth.logout", "auth.register",
                                                                       "auth.change_password", "auth.reset_password"])
    func wholePermissions(operation: String) {
        let name = operation == "plugins.list" ? "plugins" : "auth"
        let (status, message) = call(operation, "{}", .nothing)
        #expect(status == DEN_ERR_PERMISSION)
        #expect(message.hasPrefix("probe may not use \(name): its manifest does not ask for it."), "\(message)")
        let granted = name == "auth" ? ModulePermissions(auth: true) : ModulePermissions(plugins: true)
        #expect(call(operation, "{}", granted).0 == DEN_OK)
    }

    @Test("http: an undeclared host is refused before any connection; a declared one gets as far as the network")
    func http() {
        let (refused, message) = call("http.get", #"{"url": "http://127.0.0.1:1/"}"#, .nothing)
        #expect(refused == DEN_ERR_PERMISSION)
        #expect(message.contains("probe may not use http (127.0.0.1): its manifest does not ask for it"), "\(message)")
        #expect(message.contains("den modules grant probe --http 127.0.0.1"))
        let (status, answer) = call("http.get", #"{"url": "http://127.0.0.1:1/"}"#, ModulePermissions(http: ["127.0.0.1"]))
        #expect(status == DEN_ERR_SERVICE && answer.contains("connection refused"), "\(answer)")
        let (percent, text) = call("http.get", #"{"url": "http://127.0.0.1%2e:1/"}"#, ModulePermissions(http: ["*"]))
        #expect(percent == DEN_ERR_PERMISSION || percent == DEN_ERR_INVALID_ARGUMENT, "\(text)")
    }

    @Test("a module may not set the Host header: the host is the URL's, the one its permission names")
    func hostHeader() {
        let (status, message) = call("http.get", #"{"url": "http://127.0.0.1:1/", "headers": {"Host": "internal.example"}}"#,
                                     ModulePermissions(http: ["127.0.0.1"]))
        #expect(status == DEN_ERR_INVALID_ARGUMENT)
        #expect(message.contains("the Host header is set by den from the URL's host"), "\(message)")
    }

    @Test("where every loaded module has a grant (den serve), a module without one gets nothing beyond its own data")
    func noGrantIsNothing() {
        hub.gate.holdModulesWithoutGrant()
        hub.gate.setGranted([:])
        let (status, message) = call("plugins.list", "{}", ModulePermissions(plugins: true))
        #expect(status == DEN_ERR_PERMISSION)
        #expect(message == "probe may not use plugins: it has no grant in this data folder (removed?); `den modules grant probe` grants what its manifest asks for")
    }

    @Test("a host no pattern can name is refused, audited and counted like any other")
    func unnameableHostAudited() {
        let (status, message) = call("http.get", #"{"url": "http://127.0.0.1%2e:1/"}"#, ModulePermissions(http: ["*"]))
        if status == DEN_ERR_PERMISSION {
            #expect(message.contains("spell the host in ASCII"), "\(message)")
            #expect(hub.gate.refusedCalls["probe"]?["http"] == 1)
            #expect(log.lines.contains { $0.message.hasPrefix("audit permission.refused probe http") })
        } else {
            #expect(status == DEN_ERR_INVALID_ARGUMENT, "\(message)") // Foundation refused the URL itself
        }
    }

    @Test("den's own calls (no declared permissions) are never checked")
    func ownCalls() {
        let (status, _) = hub.call("plugins.list", request: Data("{}".utf8), caller: ServiceCaller(moduleID: "den"))
        #expect(status == DEN_OK)
    }

    @Test("each module and permission is written to the audit log once, and every refusal is counted")
    func auditOnce() {
        for _ in 0..<3 { _ = call("plugins.list", "{}", .nothing) }
        _ = call("auth.logout", "{}", .nothing)
        _ = call("plugins.list", "{}", as: "other", .nothing)
        let audit = log.lines.filter { $0.message.hasPrefix("audit permission.refused") }.map(\.message)
        #expect(audit == ["audit permission.refused probe plugins", "audit permission.refused probe auth", "audit permission.refused other plugins"])
        #expect(hub.gate.refusedCalls == ["probe": ["plugins": 3, "auth": 1], "other": ["plugins": 1]])
    }

    @Test("a grant narrower than the manifest (revoked) refuses the rest; hosts an operator added pass")
    func grants() {
        let declared = ModulePermissions(http: ["api.example.org"], plugins: true)
        hub.gate.setGranted(["probe": ModuleGrant(permissions: ModulePermissions(http: ["api.example.org"]), addedHosts: ["127.0.0.1"],
                                                  version: "1.0.0", how: "revoke", at: "")])
        let (status, message) = call("plugins.list", "{}", declared)
        #expect(status == DEN_ERR_PERMISSION)
        #expect(message == "probe may not use plugins: it was not granted in this data folder (revoked?); `den modules grant probe` grants what its manifest asks for")
        // Not declared, but added by an operator: allowed as far as the network.
        #expect(call("http.get", #"{"url": "http://127.0.0.1:1/"}"#, declared).0 == DEN_ERR_SERVICE)
    }

    @Test("grants that cannot be read refuse what needs one, saying why; what every module gets still works")
    func unreadable() {
        hub.gate.setUnreadable("storage: the database is down")
        let (status, message) = call("plugins.list", "{}", ModulePermissions(plugins: true))
        #expect(status == DEN_ERR_PERMISSION)
        #expect(message.contains("den cannot read what was granted (storage: the database is down)"), "\(message)")
        #expect(call("storage.set", #"{"key": "k", "value": "v"}"#, .nothing).0 == DEN_OK)
        hub.gate.setGranted([:])
        #expect(call("plugins.list", "{}", ModulePermissions(plugins: true)).0 == DEN_OK)
    }

    @Test("storage keys never leave the caller's namespace", arguments: ["../about/secret", "@den.auth/alice", "about/secret", "/about", "..", "about\\secret"])
    func storageNamespaces(key: String) throws {
        let request = try String(decoding: JSONEncoder().encode(["key": key, "value": "mine"]), as: UTF8.self)
        #expect(call("storage.set", request, .nothing).0 == DEN_OK)
        #expect(try storage.get(namespace: "probe", key: key) == "mine")
        #expect(try storage.namespaces() == ["probe"], "nothing lands anywhere else")
    }
}
