import CDenABI
@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

/// Route flags from real C plugins, through the real loader: Tests/Fixtures/DenFixtureGuardedRoute
/// (`add_route_with_flags` with DEN_ROUTE_REQUIRES_LOGIN, and a plain `add_route`) and
/// Tests/Fixtures/DenFixtureUnknownRouteFlag (a flag bit no host knows).
@Suite("Loading plugins that use route flags (ABI revision 1)")
struct RouteFlagLoaderTests {
    @Test("a C plugin's guarded routes load as guarded; its add_route route stays open")
    func guardedFixtureLoads() throws {
        let folder = try PluginFolder()
        try folder.add("DenFixtureGuardedRoute")
        let runtime = try folder.runtime()

        let record = try #require(runtime.record("libDenFixtureGuardedRoute.so"))
        #expect(record.isActive, "\(String(describing: record.error))")
        #expect(record.routes == ["vault", "vault/item/<int:id>", "vault/files/<path:rest>", "lobby"])
        #expect(record.loginRoutes == ["vault", "vault/item/<int:id>", "vault/files/<path:rest>"])
        #expect(try runtime.registry.resolve("vault/files/a/b").get().value.requiresLogin)
        #expect(try !runtime.registry.resolve("lobby").get().value.requiresLogin)

        // plugins.list carries them under requires_login, beside the unchanged routes.
        let json = String(decoding: try WireFormat.encode(record.summaryDocument), as: UTF8.self)
        #expect(json.contains(#""requires_login":["vault","vault/item/<int:id>","vault/files/<path:rest>"]"#), "\(json)")
    }

    @Test("logged out, the C plugin's guarded builder never runs; without a login module a host screen says why")
    func guardedFixtureWithoutLogin() throws {
        let folder = try PluginFolder()
        try folder.add("DenFixtureGuardedRoute")
        let runtime = try folder.runtime()
        let session = runtime.makeSession()

        #expect(session.open("lobby").screen.elements.contains(.text("guarded builds: 0")))
        for route in ["vault", "vault/item/3?x=1", "vault/files/a/b"] {
            let view = session.open(route)
            #expect(view.isHostScreen)
            #expect(view.screen.title == "Cannot open \(route)")
        }
        let back = session.back()
        #expect(back.route == "lobby")
        #expect(back.screen.elements.contains(.text("guarded builds: 0")), "the lobby reappears with the fixture's count")
    }

    @Test("with a login module, the C plugin's guarded route redirects, then opens once a user is logged in")
    func guardedFixtureWithLogin() throws {
        let folder = try PluginFolder()
        try folder.add("DenFixtureGuardedRoute")
        let runtime = try folder.runtime()
        try #require(runtime.installInProcess(GuardedApp.login(guarded: false)).error == nil)
        let session = runtime.makeSession()

        let login = session.open("vault/item/3?x=1")
        #expect(login.route == "login?next=vault%2Fitem%2F3%3Fx%3D1")
        #expect(login.moduleID == "login")

        _ = try runtime.accounts.register(username: "ada", password: GuardedApp.password)
        runtime.sessions.setUser("ada", of: session.id)
        let vault = session.replace("vault/item/3?x=1")
        #expect(vault.moduleID == "guarded")
        #expect(vault.screen.elements.contains(.text("secret contents of vault/item/3?x=1")), "\(vault.screen)")
        #expect(vault.screen.elements.contains(.text("guarded builds: 1")))
    }

    @Test("a C plugin with an unknown route flag bit is rejected whole, with the bits and the fix; the others load")
    func unknownFlagRejected() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        try folder.add("DenFixtureUnknownRouteFlag")
        let runtime = try folder.runtime()

        let record = try #require(runtime.record("libDenFixtureUnknownRouteFlag.so"))
        #expect(!record.isActive)
        let error = try #require(record.error)
        #expect(error.description.contains("flag bits 0x80 are unknown to this host"), "\(error)")
        #expect(error.description.contains("libDenFixtureUnknownRouteFlag.so"))
        #expect(error.fix.contains("update den, or rebuild the plugin without those route flags"), "\(error.fix)")
        #expect((try? runtime.registry.resolve("plain").get()) == nil, "none of its routes is served")
        #expect((try? runtime.registry.resolve("future").get()) == nil)
        #expect(runtime.record("libAboutModule.so")?.isActive == true)
    }

    @Test("plugins that register with plain add_route (revision-0 style) load and open as before")
    func revisionZeroStyle() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        try folder.add("DenFixtureMisbehaving")
        let runtime = try folder.runtime()

        #expect(runtime.registry.plugins.allSatisfy { $0.isActive && $0.loginRoutes.isEmpty })
        #expect(runtime.registry.routes.allSatisfy { !$0.requiresLogin })
        let json = String(decoding: try WireFormat.encode(PluginListResponse(plugins: runtime.registry.plugins.map(\.summaryDocument))),
                          as: UTF8.self)
        #expect(!json.contains("requires_login"), "the plugins.list answer is what it was before revision 1")
        let view = runtime.makeSession().open("about") // nobody logged in
        #expect(view.moduleID == "about")
        #expect(view.screen.title == "About Den")
        #expect(view.notices.isEmpty)
    }
}
