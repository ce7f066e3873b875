@testable import DenHost
import DenKit
import Foundation
import Testing

/// Routes registered with DEN_ROUTE_REQUIRES_LOGIN, opened through a real `NavigationSession`
/// (docs/ABI.md, "Route guards").
@Suite("Route guards: a guarded route needs a logged-in user")
struct RouteGuardTests {
    @Test("opening a guarded route logged out shows login?next=<route> and never calls the guarded builder")
    func redirectsToLogin() throws {
        let app = try GuardedApp()
        let view = app.runtime.makeSession().open("vault")
        #expect(view.route == "login?next=vault")
        #expect(view.moduleID == "login")
        #expect(view.shows("next: vault"), "the login module reads `next`: \(view.texts)")
        #expect(view.notices.contains { $0.contains("vault needs a logged-in user") })
        #expect(!view.isHostScreen)
        #expect(app.probe.builds.isEmpty)
    }

    @Test("next is percent-encoded and comes back intact", arguments: [
        ("vault/item/7?tab=notes&sort=new", "login?next=vault%2Fitem%2F7%3Ftab%3Dnotes%26sort%3Dnew"),
        ("vault/files/taxes/2026/q1%20report.pdf", "login?next=vault%2Ffiles%2Ftaxes%2F2026%2Fq1%2520report.pdf"),
        ("vault?who=ada+lovelace&x=%C3%A9", "login?next=vault%3Fwho%3Dada%2Blovelace%26x%3D%25C3%25A9"),
    ])
    func encodesNext(route: String, expected: String) throws {
        let app = try GuardedApp()
        let view = app.runtime.makeSession().open(route)
        #expect(view.route == expected)
        // The login module decodes `next` back to exactly the route the user asked for.
        #expect(view.shows("next: \(route)"), "\(view.texts)")
        let match = try app.runtime.registry.resolve(view.route).get()
        #expect(match.query[RouteGuard.nextParameter] == route)
        #expect(app.probe.builds.isEmpty)
    }

    @Test("replace, a module's navigate and replace effects, and a deep link are guarded too")
    func everyWayIn() throws {
        let app = try GuardedApp()
        let session = app.runtime.makeSession()
        _ = session.open("lobby")

        let replaced = session.replace("vault/item/3")
        #expect(replaced.route == "login?next=vault%2Fitem%2F3")
        #expect(replaced.backStack.isEmpty, "replace put login where the lobby was")

        _ = session.replace("lobby")
        let navigated = session.send(action: "go", fields: ["route": "vault"])
        #expect(navigated.route == "login?next=vault")
        #expect(navigated.backStack == ["lobby"])

        let back = session.back()
        #expect(back.route == "lobby")
        let swapped = session.send(action: "swap", fields: ["route": "vault/files/a/b"])
        #expect(swapped.route == "login?next=vault%2Ffiles%2Fa%2Fb")
        #expect(swapped.backStack.isEmpty)

        let deepLink = app.runtime.makeSession().open("vault/item/99?from=mail")
        #expect(deepLink.route == "login?next=vault%2Fitem%2F99%3Ffrom%3Dmail")
        #expect(app.probe.builds.isEmpty, "no guarded builder ran: \(app.probe.builds)")
    }

    @Test("after login the guarded route opens, built for that user")
    func opensWhenLoggedIn() throws {
        let app = try GuardedApp()
        let session = app.runtime.makeSession()
        app.setUser("ada", of: session)
        let view = session.open("vault/item/7?tab=notes")
        #expect(view.route == "vault/item/7?tab=notes")
        #expect(view.moduleID == "vaults")
        #expect(view.shows("vault of ada"))
        #expect(view.notices.isEmpty)
        #expect(app.probe.builds == ["vault/item/7?tab=notes"])
    }

    @Test("the login module logs in through auth and replaces itself with next: the guarded screen opens")
    func loginThenNext() throws {
        let app = try GuardedApp()
        let session = app.runtime.makeSession()
        _ = session.open("lobby")
        let login = session.open("vault/files/a/b%20c")
        #expect(login.route == "login?next=vault%2Ffiles%2Fa%2Fb%2520c")
        #expect(app.probe.builds.isEmpty)

        let after = session.send(action: "log-in", fields: ["username": "ada", "password": GuardedApp.password])
        #expect(after.route == "vault/files/a/b%20c")
        #expect(after.shows("vault of ada"), "\(after.texts)")
        #expect(after.backStack == ["lobby"], "login was replaced, not kept below")
        #expect(app.probe.builds == ["vault/files/a/b%20c"])
    }

    @Test("with no module serving login, a host screen says what is wrong and what to do")
    func noLoginModule() throws {
        let app = try GuardedApp(login: .none)
        let session = app.runtime.makeSession()
        _ = session.open("lobby")
        let view = session.open("vault")
        #expect(view.isHostScreen)
        #expect(view.route == "vault")
        #expect(view.screen.title == "Cannot open vault")
        #expect(view.shows("vault needs a logged-in user, but no loaded module serves the login route `login`"), "\(view.texts)")
        #expect(view.shows("Add the Login module"))
        #expect(app.probe.builds.isEmpty)
        // A host screen is never kept: back returns to the lobby.
        #expect(session.back().route == "lobby")
    }

    @Test("a login route that is itself guarded gets an error screen, not a redirect loop")
    func guardedLoginNoLoop() throws {
        let app = try GuardedApp(login: .guarded)
        let session = app.runtime.makeSession()
        let view = session.open("vault")
        #expect(view.isHostScreen)
        #expect(view.errors.isEmpty, "no redirect loop was needed to stop: \(view.errors)")
        #expect(view.shows("module 'trap' registered the login route `login` as needing a logged-in user too"), "\(view.texts)")
        #expect(app.probe.builds.isEmpty)

        let login = session.open("login")
        #expect(login.isHostScreen)
        #expect(login.screen.title == "Cannot open login")
    }

    @Test("a route too long to pass as next still leads to login, without next, and says so")
    func tooLongForNext() throws {
        let app = try GuardedApp()
        let route = "vault/files/" + Array(repeating: "%C3%A9", count: 300).joined() // 1,812 bytes; tripled when encoded
        #expect((try? app.runtime.registry.resolve(route).get()) != nil)
        let view = app.runtime.makeSession().open(route)
        #expect(view.route == "login")
        #expect(view.shows("next: (none)"))
        #expect(view.notices.contains { $0.contains("too long to pass to the login screen") && $0.contains("open it again") })
        #expect(app.probe.builds.isEmpty)
    }

    @Test("routes without the flag open for nobody, as before route guards")
    func unguardedRoutesUnchanged() throws {
        let app = try GuardedApp(login: .none)
        let view = app.runtime.makeSession().open("lobby")
        #expect(view.route == "lobby")
        #expect(view.shows("open to everyone"))
        #expect(view.notices.isEmpty)
    }

    @Test("the registry and the listings know which routes need login")
    func listings() throws {
        let app = try GuardedApp()
        #expect(try app.runtime.registry.resolve("vault/item/1").get().value.requiresLogin)
        #expect(try !app.runtime.registry.resolve("lobby").get().value.requiresLogin)
        let guarded = app.runtime.registry.routes.filter(\.requiresLogin).map(\.pattern)
        #expect(guarded == ["vault", "vault/item/<int:id>", "vault/files/<path:rest>"])
        let summary = try #require(app.runtime.registry.plugins.first { $0.id == "vaults" }?.summaryDocument)
        #expect(summary.requiresLogin == guarded)
        #expect(app.runtime.registry.plugins.first { $0.id == "login" }?.summaryDocument.requiresLogin == nil)

        // The Not found screen marks them.
        let missing = app.runtime.makeSession().open("nowhere")
        let items = missing.screen.elements.flatMap { element -> [ItemList.Item] in
            if case .list(let list) = element { list.items } else { [] }
        }
        #expect(items.first { $0.title == "vault" }?.detail == "module vaults, requires login")
        #expect(items.first { $0.title == "lobby" }?.detail == "module vaults")
    }
}
