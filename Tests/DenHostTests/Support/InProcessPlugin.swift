import CDenABI
@testable import DenHost
import DenKit
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A DenKit module installed in a runtime's registry the way the loader would, minus the
/// dlopen: its routes go through the real registrar (`DenModule.entry`, so a guarded route uses
/// `add_route_with_flags`), its builders and events through the real C trampolines.
enum InProcessPlugin {
    static func install(_ definition: ModuleDefinition, in runtime: DenRuntime) throws {
        let endpoint = runtime.services.makeEndpoint(file: "lib\(definition.id)Module.so")
        let recorder = RegistrationRecorder()
        let status = recorder.withRegistrar { registrar in
            DenModule.entry(host: UnsafeRawPointer(endpoint.host), registrar: UnsafeRawPointer(registrar), module: definition)
        }
        try #require(status == Int32(DEN_OK.rawValue), "entry failed: \(recorder.problems)")
        let file = URL(fileURLWithPath: "/in-process/lib\(definition.id)Module.so")
        let plugin = LoadedPlugin(file: file, loadedCopy: file, id: try #require(recorder.id), version: recorder.version ?? "",
                                  summary: recorder.summary ?? "", routes: recorder.routes, host: endpoint.host, endpoint: endpoint,
                                  library: DynamicLibrary(handle: try #require(dlopen(nil, RTLD_NOW))))
        let record = runtime.registry.install(plugin)
        try #require(record.error == nil, "\(String(describing: record.error))")
    }
}

/// An instance whose every event is answered by a closure (tests spell out the module's reply).
final class ScriptedInstance: ModuleInstance {
    private let reply: (ModuleEvent) throws -> ModuleReply

    init(_ reply: @escaping (ModuleEvent) throws -> ModuleReply) {
        self.reply = reply
    }

    func handle(_ event: ModuleEvent) throws -> ModuleReply {
        try reply(event)
    }
}
