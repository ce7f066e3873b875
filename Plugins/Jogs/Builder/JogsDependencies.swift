import DenKit

/// The services a Jogs stack needs; `host(_:)` gives the host-backed ones, tests pass an
/// `InMemoryKeyValueStore`, an `InMemorySessionValues` and a fixed clock.
struct JogsDependencies {
    var store: any KeyValueStore
    var session: any SessionValues
    var clock: any JogsClock = SystemJogsClock()
    var log: (any ModuleLog)?

    static func host(_ host: HostServices) -> JogsDependencies {
        JogsDependencies(store: HostKeyValueStore(host), session: HostSessionValues(host), log: HostLog(host))
    }
}
