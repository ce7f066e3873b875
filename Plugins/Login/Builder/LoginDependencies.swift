import DenKit

/// The services a Login stack needs; `host(_:)` gives the host-backed ones, tests pass mocks.
struct LoginDependencies {
    var auth: any Authenticating
    var session: any SessionValues
    var log: (any ModuleLog)?
    var listeners: (any LoginListening)?

    static func host(_ host: HostServices) -> LoginDependencies {
        LoginDependencies(auth: HostAuthClient(host), session: HostSessionValues(host), log: HostLog(host),
                          listeners: ExportLoginListeners(exports: HostExports(host), log: HostLog(host)))
    }
}
