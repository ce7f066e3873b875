@testable import DenHost
import DenKit
import Foundation
import Testing

/// The rule for guarded screens already on the stack (NavigationSession, docs/ABI.md "Route
/// guards"): a guarded screen is shown to, and sent events for, only the user it was built for.
/// Once the session's user is someone else or nobody, the old instance is dropped and its route
/// opened again through the guard.
@Suite("Route guards: guarded screens on the stack when the user changes")
struct GuardedScreenUserChangeTests {
    @Test("back to a guarded screen after logout shows login, never the old screen; logging in rebuilds it")
    func backAfterLogout() throws {
        let app = try GuardedApp()
        let session = app.runtime.makeSession()
        app.setUser("ada", of: session)
        _ = session.open("lobby")
        #expect(session.open("vault").shows("vault of ada"))
        _ = session.open("lobby")
        app.setUser(nil, of: session)

        let back = session.back()
        #expect(back.route == "login?next=vault")
        #expect(!back.shows("vault of ada"))
        #expect(back.backStack == ["lobby"])
        #expect(app.probe.builds == ["vault"], "the guard did not call the builder")

        let after = session.send(action: "log-in", fields: ["username": "ada", "password": GuardedApp.password])
        #expect(after.route == "vault")
        #expect(after.shows("vault of ada"))
        #expect(app.probe.builds == ["vault", "vault"], "a fresh instance, not the dropped one")
    }

    @Test("logging out with the module's logout action, then going back, leads to login")
    func moduleLogsOutThenBack() throws {
        let app = try GuardedApp()
        let session = app.runtime.makeSession()
        app.setUser("ada", of: session)
        _ = session.open("vault")
        let lobby = session.send(action: "log-out-and-lobby", fields: [:])
        #expect(lobby.route == "lobby")
        #expect(app.runtime.sessions.user(of: session.id) == nil)

        let back = session.back()
        #expect(back.route == "login?next=vault")
        #expect(app.probe.builds == ["vault"])
    }

    @Test("back to a guarded screen built for another user rebuilds it for the user now logged in")
    func backAsAnotherUser() throws {
        let app = try GuardedApp()
        let session = app.runtime.makeSession()
        app.setUser("ada", of: session)
        _ = session.open("vault/item/4")
        _ = session.open("lobby")
        app.setUser("bob", of: session)

        let back = session.back()
        #expect(back.route == "vault/item/4")
        #expect(back.shows("vault of bob"))
        #expect(!back.shows("vault of ada"))
        #expect(app.probe.builds == ["vault/item/4", "vault/item/4"])
    }

    @Test("the same user again (logged out and back in) keeps the guarded screen")
    func sameUserKeepsScreen() throws {
        let app = try GuardedApp()
        let session = app.runtime.makeSession()
        app.setUser("ada", of: session)
        _ = session.open("vault")
        _ = session.open("lobby")
        app.setUser(nil, of: session)
        app.setUser("ada", of: session)

        let back = session.back()
        #expect(back.route == "vault")
        #expect(back.shows("vault of ada"))
        #expect(app.probe.builds == ["vault"])
    }

    @Test("an action for a guarded screen whose user logged out elsewhere is not sent; the route goes through the guard")
    func actionOnStaleScreen() throws {
        let app = try GuardedApp()
        let session = app.runtime.makeSession()
        app.setUser("ada", of: session)
        _ = session.open("vault")
        app.setUser(nil, of: session) // e.g. `den users delete ada` logs ada out everywhere

        let view = session.send(action: "touch", fields: [:])
        #expect(app.probe.actions.isEmpty, "the old instance heard nothing: \(app.probe.actions)")
        #expect(view.route == "login?next=vault")
        #expect(view.notices.contains { $0.contains("your last action was not sent") })
    }

    @Test("a guarded screen that logs its user out is not left showing: its route goes through the guard")
    func screenLogsOutItself() throws {
        let app = try GuardedApp()
        let session = app.runtime.makeSession()
        app.setUser("ada", of: session)
        _ = session.open("lobby")
        _ = session.open("vault")

        let view = session.send(action: "log-out", fields: [:])
        #expect(app.probe.actions == ["log-out"])
        #expect(view.route == "login?next=vault")
        #expect(!view.shows("vault of ada"))
        #expect(view.backStack == ["lobby"])
    }

    @Test("a step that logs out and then loops is undone, but the old user's screen stays hidden")
    func logoutThenLoop() throws {
        let app = try GuardedApp()
        let session = app.runtime.makeSession()
        app.setUser("ada", of: session)
        _ = session.open("lobby")
        _ = session.open("vault")

        let view = session.send(action: "log-out-and-loop", fields: [:])
        #expect(view.errors.contains { $0.contains("redirect loop") })
        #expect(view.route == "vault")
        #expect(view.isHostScreen)
        #expect(!view.shows("vault of ada"))
        #expect(view.shows("the logged-in user has changed"))
        // Going back works, and opening the route again goes through the guard.
        #expect(session.back().route == "lobby")
        #expect(session.open("vault").route == "login?next=vault")
    }
}
