@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

@Suite("A DenKit module installed in-process behaves like a loaded plugin")
struct InProcessModulesSpec {
    let temp: TemporaryDirectory
    let runtime: DenRuntime

    init() throws {
        temp = try TemporaryDirectory("den-in-process")
        runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [], bundledDirectory: nil, cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data")))
    }

    static func module(_ id: String, routes: [String], guarded: Set<String> = []) -> ModuleDefinition {
        ModuleDefinition(id: id, version: "1.2.3", summary: "In-process \(id)", routes: routes.map { pattern in
            RouteDefinition(pattern, requiresLogin: guarded.contains(pattern)) { _ in
                ScriptedInstance { _ in ModuleReply(screen: Screen(title: "\(id): \(pattern)", elements: [])) }
            }
        })
    }

    @Test("its routes resolve and build, and a guarded route is recorded as guarded")
    func installs() throws {
        let record = runtime.installInProcess(Self.module("notes", routes: ["notes", "notes/<int:id>"], guarded: ["notes/<int:id>"]))

        #expect(record.error == nil)
        #expect(record.id == "notes" && record.version == "1.2.3")
        #expect(record.loginRoutes == ["notes/<int:id>"])
        let view = runtime.makeSession().open("notes")
        #expect(view.screen.title == "notes: notes", "\(view.errors)")
    }

    @Test("a module the registrar refuses is recorded as failed, saying why")
    func refusedRegistration() {
        let record = runtime.installInProcess(Self.module("Bad Id", routes: ["x"]))

        #expect(record.id == nil)
        #expect(record.error?.description.contains("not valid") == true, "\(String(describing: record.error))")
        #expect(runtime.registry.plugins.contains { $0.error != nil })
    }

    @Test("a route another module serves is a conflict, as between two plugin files")
    func conflict() {
        #expect(runtime.installInProcess(Self.module("first", routes: ["shared"])).error == nil)
        let second = runtime.installInProcess(Self.module("second", routes: ["shared"]))

        #expect(second.error?.description.contains("shared") == true, "\(String(describing: second.error))")
        #expect(runtime.makeSession().open("shared").screen.title == "first: shared")
    }
}
