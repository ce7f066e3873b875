import CDenABI
@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

/// The shell every front-end draws around a screen: navigation entries contributed by the
/// loaded modules, the logged-in user with Log out and Change password, the app's name.
@Suite("The app shell: navigation contributed by modules")
struct AppShellTests {
    static func module(_ id: String, routes: [String], navigation: [NavigationEntry], guarded: Bool = false) -> ModuleDefinition {
        ModuleDefinition(id: id, version: "1.0.0", summary: id, routes: routes.map { pattern in
            RouteDefinition(pattern, requiresLogin: guarded) { _ in
                ScriptedInstance { _ in ModuleReply(screen: Screen(title: "\(id) screen", elements: [.text(pattern)])) }
            }
        }, navigation: navigation)
    }

    @Test("the entries of the loaded modules, by order then title; a module without entries adds none")
    func entriesInOrder() throws {
        let app = try GuardedApp()
        try #require(app.runtime.installInProcess(Self.module("late", routes: ["late"],
            navigation: [NavigationEntry(title: "Zebra", route: "late", order: 5), NavigationEntry(title: "Apple", route: "late", order: 5)])).error == nil)
        try #require(app.runtime.installInProcess(Self.module("early", routes: ["early", "early/<int:id>"],
            navigation: [NavigationEntry(title: "First", route: "early/7", order: 1)])).error == nil)
        let shell = app.runtime.makeSession().shell()
        #expect(shell.entries.map(\.title) == ["First", "Apple", "Zebra"])
        #expect(shell.entries.map(\.moduleID) == ["early", "late", "late"])
        #expect(shell.entries.first?.route == "early/7")
        #expect(shell.appName == "Den")
    }

    @Test("an entry that needs a login is marked while nobody is logged in; the account part follows the user")
    func loginAndAccount() throws {
        let app = try GuardedApp()
        try #require(app.runtime.installInProcess(Self.module("safe", routes: ["safe", "login/password"],
            navigation: [NavigationEntry(title: "Safe", route: "safe", order: 1, requiresLogin: true)], guarded: true)).error == nil)
        let session = app.runtime.makeSession()
        let before = session.shell()
        #expect(before.entries.map(\.needsLogin) == [true])
        #expect(before.user == nil)
        #expect(before.loginRoute == "login")
        #expect(before.passwordRoute == nil)

        app.setUser("alice", of: session)
        let after = session.shell()
        #expect(after.entries.map(\.needsLogin) == [false])
        #expect(after.user == "alice")
        #expect(after.loginRoute == nil)
        #expect(after.passwordRoute == "login/password")
    }

    @Test("Log out from the shell ends the login and reopens a guarded screen through the guard")
    func logOut() throws {
        let app = try GuardedApp()
        let session = app.runtime.makeSession()
        app.setUser("alice", of: session)
        #expect(session.open("vault").shows("vault of alice"))
        let view = session.logOut()
        #expect(session.shell().user == nil)
        #expect(view.route.hasPrefix("login"), "the guarded screen is gone: \(view.route)")
        #expect(view.notices.contains("alice is logged out."))
        #expect(!view.shows("vault of alice"))
        #expect(session.logOut().notices.contains("Nobody is logged in."))
    }

    @Test("a module refused at load, or not selected with --plugins, contributes nothing")
    func failedOrUnselectedContributeNothing() throws {
        let app = try GuardedApp()
        // The same route as a module already loaded: refused as a conflict.
        let clash = app.runtime.installInProcess(Self.module("clash", routes: ["lobby"],
            navigation: [NavigationEntry(title: "Clash", route: "lobby")]))
        #expect(clash.error != nil)
        #expect(app.runtime.makeSession().shell().entries.isEmpty)

        let temp = try TemporaryDirectory("den-shell")
        let plugins = try temp.folder("plugins")
        for name in ["AboutModule", "MainModule"] { try temp.copy(try BuildProducts.require(BuildProducts.library(name)), into: plugins) }
        var configuration = HostConfiguration(pluginDirectories: [plugins], cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data"))
        configuration.selectedModules = ["about"]
        let runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins()
        #expect(runtime.makeSession().shell().entries.map(\.title) == ["About"], "only the selected module's entry")
    }

    @Test("a module replacing its screen with a route open below returns to it; a link to the screen below goes back")
    func returnsToTheScreenBelow() throws {
        let app = try GuardedApp()
        try #require(app.runtime.installInProcess(ModuleDefinition(id: "pages", version: "1.0.0", summary: "", routes: [
            RouteDefinition("a") { _ in ScriptedInstance { _ in ModuleReply(screen: Screen(title: "A", elements: [])) } },
            RouteDefinition("b") { _ in ScriptedInstance { _ in ModuleReply(screen: Screen(title: "B", elements: [])) } },
            RouteDefinition("c") { _ in
                ScriptedInstance { event in
                    guard case .action("done", _) = event else { return ModuleReply(screen: Screen(title: "C", elements: [])) }
                    return ModuleReply(screen: Screen(title: "C", elements: []), effects: [.replace("a")])
                }
            },
        ])).error == nil)
        let session = app.runtime.makeSession()
        _ = session.open("a")
        _ = session.open("b")
        #expect(session.open("c").backStack == ["a", "b"])
        let replaced = session.send(action: "done", fields: [:])
        #expect(replaced.route == "a")
        #expect(replaced.backStack.isEmpty, "b and c closed; a is not there twice")

        _ = session.open("b")
        let followed = session.follow("a")
        #expect(followed.route == "a" && followed.backStack.isEmpty, "the link led to the screen below: back")
        #expect(session.follow("b").backStack == ["a"], "any other link opens its route")
        // Opening a route is still opening it: user navigation keeps the stack it makes.
        #expect(session.open("a").backStack == ["a", "b"])
    }

    @Test("an older plugin (no manifest, so no entries) loads and serves as before beside modules with entries")
    func olderPluginLoadsUnchanged() throws {
        let temp = try TemporaryDirectory("den-shell-old")
        let plugins = try temp.folder("plugins")
        for name in ["AboutModule", "DenFixtureGuardedRoute"] { try temp.copy(try BuildProducts.require(BuildProducts.library(name)), into: plugins) }
        let runtime = DenRuntime(configuration: HostConfiguration(pluginDirectories: [plugins], cacheDirectory: temp.path("cache"),
                                                                  dataDirectory: temp.path("data")))
        runtime.loadPlugins()
        let old = try #require(runtime.registry.plugins.first { $0.fileName == "libDenFixtureGuardedRoute.so" })
        #expect(old.isActive && old.navigation.isEmpty, "\(String(describing: old.error))")
        #expect(!old.routes.isEmpty)
        #expect(runtime.makeSession().shell().entries.map(\.title) == ["About"])
    }

    @Test("the app's name comes from the den.app setting")
    func appName() throws {
        let app = try GuardedApp()
        // As `den config set den.app name "Jog Club"` stores it.
        let request = try WireFormat.encode(StorageSetRequest(key: ModuleSettings.key("name"), value: "Jog Club"))
        let (status, _) = app.runtime.services.call(StorageSetRequest.operation, request: request,
                                                    caller: ServiceCaller(moduleID: AppSettingDefinitions.namespace))
        #expect(status == DEN_OK)
        #expect(app.runtime.makeSession().shell().appName == "Jog Club")
    }
}
