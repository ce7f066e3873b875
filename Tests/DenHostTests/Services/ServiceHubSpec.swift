import CDenABI
import DenHost
import DenKit
import Foundation
import Testing

@Suite("The service hub")
struct ServiceHubSpec {
    let hub = ServiceHub(services: [StorageService(engine: InMemoryStorageEngine())])

    @Test("an unknown operation names the operations the host offers")
    func unknownOperation() {
        let (status, body) = hub.call("teleport", request: Data("{}".utf8), caller: ServiceCaller(moduleID: "main"))
        #expect(status == DEN_ERR_NOT_FOUND)
        #expect(String(decoding: body, as: UTF8.self).contains("storage.get"))
    }

    @Test("a module the host has not installed (or rejected) cannot use storage")
    func unidentifiedCaller() {
        let (status, body) = hub.call("storage.set", request: Data(#"{"key":"k","value":"v"}"#.utf8), caller: nil)
        #expect(status == DEN_ERR_INVALID_ARGUMENT)
        #expect(String(decoding: body, as: UTF8.self).contains("installed the module"))
        let (_, read) = hub.call("storage.list", request: Data("{}".utf8), caller: ServiceCaller(moduleID: "about"))
        #expect(String(decoding: read, as: UTF8.self) == #"{"entries":[]}"#, "nothing was written anywhere")
    }
}
