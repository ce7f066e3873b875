import DenKit
import Foundation
import Testing
@testable import LoginModule

/// The whole stack as the host drives it: built by `LoginBuilder` for a route, events in,
/// replies (screen + effects) out, with a mock `auth` service and an in-memory session.
@Suite("Login module assembled by its builder")
struct LoginStackTests {
    let session = InMemorySessionValues()
    let auth: MockAuth
    let log = RecordingLog()
    static let password = "Sesame-Opens-42"

    init() {
        auth = MockAuth(session: session)
    }

    func stack(_ pattern: String = LoginRoutes.logIn, next: String? = nil) throws -> LoginBuilder.Stack {
        let query = next.map { [LoginRoutes.nextKey: $0] } ?? [:]
        return try LoginBuilder.assemble(context(pattern, query: query),
                                         dependencies: LoginDependencies(auth: auth, session: session, log: log))
    }

    func logIn(_ instance: VIPERInstance, password: String = LoginStackTests.password) throws -> ModuleReply {
        try instance.handle(.action(id: "log-in", fields: ["username": "alice", "password": password]))
    }

    @Test("the module is 'login' 1.0.0 with four routes; only the change-password page requires a login")
    func definition() {
        #expect(loginModule.id == "login")
        #expect(loginModule.version == "1.0.0")
        #expect(!loginModule.summary.isEmpty)
        #expect(loginModule.routes.map(\.pattern) == ["login", "login/register", "login/reset", "login/password"])
        #expect(loginModule.routes.map(\.requiresLogin) == [false, false, false, true])
        #expect(loginModule.settings.isEmpty)
    }

    @Test("login?next=jogs: a good login replaces the login screen with jogs, and the session has the user")
    func loginGoesToNext() throws {
        let stack = try stack(next: "jogs")
        _ = try stack.instance.handle(.appear)

        let reply = try logIn(stack.instance)

        #expect(reply.effects == [.replace("jogs")])
        #expect(try session.loggedInUser() == "alice")
        #expect(auth.calls == [.logIn(username: "alice", password: Self.password)])
    }

    @Test("login without next, with an empty next, or with an unsafe next goes on to main",
          arguments: [nil, "", "https://evil.example", "login", "login?next=jogs", "../jogs"])
    func loginGoesToMain(next: String?) throws {
        let stack = try stack(next: next)
        _ = try stack.instance.handle(.appear)

        #expect(try logIn(stack.instance).effects == [.replace("main")])
    }

    @Test("a wrong password: the error shows, the password field is empty, the username stays, nothing navigates")
    func wrongPassword() throws {
        auth.logInAnswer = AuthAnswer(outcome: .refused, message: "Wrong username or password.")
        let stack = try stack(next: "jogs")
        _ = try stack.instance.handle(.appear)

        let reply = try logIn(stack.instance)

        #expect(reply.effects.isEmpty)
        #expect(reply.screen.banners.contains(Banner(.error, "Wrong username or password.")))
        #expect(reply.screen.field("username")?.value == "alice")
        #expect(reply.screen.field("password")?.value == "")
        #expect(!reply.screen.json.contains(Self.password))
        #expect(try session.loggedInUser() == nil)
    }

    @Test("a locked account shows when to try again")
    func locked() throws {
        auth.logInAnswer = AuthAnswer(outcome: .locked, message: "This account is locked for 15 minutes (until 12:30 UTC).",
                                      retryAfter: "2026-10-02T12:30:00Z")
        let stack = try stack()
        _ = try stack.instance.handle(.appear)

        let reply = try logIn(stack.instance)

        #expect(reply.screen.banners.contains(Banner(.warning, "This account is locked for 15 minutes (until 12:30 UTC).")))
        #expect(reply.effects.isEmpty)
    }

    @Test("built without a host: the form still opens, and an attempt shows a banner instead of crashing")
    func withoutHost() throws {
        let instance = try LoginBuilder.build(context(LoginRoutes.logIn, route: "login?next=jogs", query: ["next": "jogs"]))

        let first = try instance.handle(.appear)
        #expect(first.screen.title == "Log in")
        #expect(first.screen.banners.contains { $0.kind == .warning && $0.text.contains("Could not tell who is logged in") })

        let reply = try instance.handle(.action(id: "log-in", fields: ["username": "alice", "password": Self.password]))
        #expect(reply.effects.isEmpty)
        #expect(reply.screen.banners.contains { $0.kind == .error && $0.text.hasPrefix("Could not log in:")
            && $0.text.contains("no host is attached") })
        #expect(reply.screen.field("password")?.value == "")
        _ = try WireFormat.encode(reply)
    }

    @Test("a failing service: a clear banner, no navigation, and nothing about the password in the log")
    func serviceFailure() throws {
        auth.failure = HostServiceError(service: "auth.login", status: 6, message: "auth.login: the account store is locked")
        let stack = try stack()
        _ = try stack.instance.handle(.appear)

        let reply = try logIn(stack.instance)

        #expect(reply.screen.banners.contains { $0.kind == .error && $0.text.contains("the account store is locked") })
        #expect(reply.effects.isEmpty)
        #expect(!log.lines.isEmpty)
        #expect(!log.lines.joined().contains(Self.password))
    }

    @Test("logged in, login shows the account; Log out clears the session and shows the login form")
    func logOut() throws {
        try session.set("alice", forKey: SessionLimits.userKey)
        let stack = try stack()
        let account = try stack.instance.handle(.appear)
        #expect(account.screen.texts == ["Logged in as alice."])

        let reply = try stack.instance.handle(.action(id: "log-out", fields: [:]))

        #expect(try session.loggedInUser() == nil)
        #expect(reply.screen.title == "Log in")
        #expect(reply.screen.field("password") != nil)
        #expect(reply.screen.banners.contains(Banner(.success, "alice is logged out.")))
    }

    @Test("Continue on the account page goes on to next")
    func continueToNext() throws {
        try session.set("alice", forKey: SessionLimits.userKey)
        let stack = try stack(next: "jogs/7")
        _ = try stack.instance.handle(.appear)

        #expect(try stack.instance.handle(.action(id: "continue", fields: [:])).effects == [.replace("jogs/7")])
    }

    @Test("register: a repeat that differs is refused under the field and nothing is sent")
    func registerMismatch() throws {
        let stack = try stack(LoginRoutes.register)
        _ = try stack.instance.handle(.appear)

        let reply = try stack.instance.handle(.action(id: "register", fields: [
            "username": "bob", "password": Self.password, "repeat": Self.password + "x"]))

        #expect(auth.calls.isEmpty)
        #expect(reply.screen.field("repeat")?.error == "The two passwords differ. Type the same new password in both fields.")
        #expect(reply.screen.field("username")?.value == "bob")
        #expect(["password", "repeat"].allSatisfy { reply.screen.field($0)?.value == "" })
    }

    @Test("register: the new account is logged in and goes on to next")
    func register() throws {
        auth.registerAnswer = AuthAnswer(outcome: .ok, username: "bob")
        auth.logInAnswer = AuthAnswer(outcome: .ok, username: "bob")
        let stack = try stack(LoginRoutes.register, next: "jogs")
        _ = try stack.instance.handle(.appear)

        let reply = try stack.instance.handle(.action(id: "register", fields: [
            "username": "bob", "password": Self.password, "repeat": Self.password]))

        #expect(reply.effects == [.replace("jogs")])
        #expect(try session.loggedInUser() == "bob")
    }

    @Test("reset with a bad token shows the service's message; the token and passwords are cleared")
    func resetBadToken() throws {
        auth.resetAnswer = AuthAnswer(outcome: .refused, message: "This reset token has expired.")
        let stack = try stack(LoginRoutes.reset)
        _ = try stack.instance.handle(.appear)

        let reply = try stack.instance.handle(.action(id: "reset", fields: [
            "token": "0123456789abcdef0123456789abcdef", "password": Self.password, "repeat": Self.password]))

        #expect(reply.screen.banners.contains(Banner(.error, "This reset token has expired.")))
        #expect(["token", "password", "repeat"].allSatisfy { reply.screen.field($0)?.value == "" })
        #expect(!reply.screen.json.contains("0123456789abcdef"))
        #expect(reply.effects.isEmpty)
    }

    @Test("change password: sends current and new, says it is done")
    func changePassword() throws {
        try session.set("alice", forKey: SessionLimits.userKey)
        let stack = try stack(LoginRoutes.changePassword)
        _ = try stack.instance.handle(.appear)

        let reply = try stack.instance.handle(.action(id: "change", fields: [
            "current": "Old-Sesame-41", "password": Self.password, "repeat": Self.password]))

        #expect(auth.calls == [.changePassword(current: "Old-Sesame-41", new: Self.password)])
        #expect(reply.screen.banners.contains(Banner(.success, "Your password is changed. Use the new one from now on.")))
        #expect(!reply.screen.json.contains("Sesame"))
    }

    @Test("the change-password page while logged out leads to login, coming back after")
    func changePasswordLoggedOut() throws {
        let stack = try stack(LoginRoutes.changePassword)
        _ = try stack.instance.handle(.appear)

        let reply = try stack.instance.handle(.action(id: "show-login", fields: [:]))

        #expect(reply.effects == [.replace("login?next=login%2Fpassword")])
    }

    @Test("Create account and Forgot password replace the form with their page, carrying next")
    func otherPages() throws {
        let stack = try stack(next: "jogs/7")
        _ = try stack.instance.handle(.appear)

        #expect(try stack.instance.handle(.action(id: "create-account", fields: [:])).effects == [.replace("login/register?next=jogs%2F7")])
        #expect(try stack.instance.handle(.action(id: "forgot-password", fields: [:])).effects == [.replace("login/reset?next=jogs%2F7")])
    }

    // MARK: Hot swap

    @Test("the snapshot keeps the username and next, and never the password, whatever happened before")
    func snapshotHasNoPassword() throws {
        auth.logInAnswer = AuthAnswer(outcome: .refused, message: "Wrong username or password.")
        let stack = try stack(next: "jogs/7")
        _ = try stack.instance.handle(.appear)
        _ = try logIn(stack.instance)
        _ = try stack.instance.handle(.action(id: "create-account", fields: ["username": "alice", "password": Self.password]))

        let snapshot = String(decoding: try stack.instance.snapshot(), as: UTF8.self)

        #expect(snapshot == #"{"next":"jogs/7","username":"alice","v":1}"#)
        #expect(!snapshot.contains(Self.password))
    }

    @Test("restoring a snapshot into a freshly built stack brings back the username and next")
    func restore() throws {
        let fresh = try stack()
        _ = try fresh.instance.handle(.appear)

        try fresh.instance.restore(Data(#"{"v":1,"username":"alice","next":"jogs/7"}"#.utf8))
        let reply = try fresh.instance.handle(.appear)

        #expect(reply.screen.field("username")?.value == "alice")
        #expect(reply.screen.texts == ["Log in to go on to jogs/7."])
        #expect(try logIn(fresh.instance).effects == [.replace("jogs/7")])
    }

    @Test("a snapshot that cannot be used is refused whole: unreadable, newer, or with an unsafe next",
          arguments: ["not json", #"{"v":2,"username":"alice"}"#, #"{"v":1,"username":"alice","next":"https://evil.example"}"#])
    func restoreRefused(state: String) throws {
        let stack = try stack(next: "jogs")
        _ = try stack.instance.handle(.appear)

        #expect(throws: ModuleError.self) { try stack.instance.restore(Data(state.utf8)) }
        #expect(stack.presenter.state == LoginPresenter.State(username: "", next: nextRoute("jogs")))
    }

    @Test("an unknown pattern is refused with the patterns the module serves")
    func unknownPattern() {
        #expect {
            _ = try LoginBuilder.assemble(context("login/other"), dependencies: LoginDependencies(auth: auth, session: session))
        } throws: { error in
            (error as? ModuleError)?.description.contains("login, login/register, login/reset, login/password") == true
        }
    }

    // MARK: Ownership

    @Test("the wiring follows the ownership rules: weak back-references, strong forward ones")
    func wiring() throws {
        let stack = try stack()

        #expect(stack.interactor.output === stack.presenter)
        #expect(stack.presenter.view === stack.view)
        #expect(stack.router.view === stack.view)
    }

    @Test("dropping the instance frees view, presenter, interactor and router (no retain cycles)")
    func noRetainCycles() throws {
        weak var view: LoginView?
        weak var presenter: LoginPresenter?
        weak var interactor: LoginInteractor?
        weak var router: LoginRouter?
        weak var instance: VIPERInstance?

        try {
            let stack = try stack(next: "jogs")
            _ = try stack.instance.handle(.appear)
            _ = try logIn(stack.instance)
            (view, presenter, interactor, router, instance) =
                (stack.view, stack.presenter, stack.interactor, stack.router, stack.instance)
            #expect(view != nil && presenter != nil && interactor != nil && router != nil && instance != nil)
        }()

        #expect(instance == nil)
        #expect(view == nil)
        #expect(presenter == nil)
        #expect(interactor == nil)
        #expect(router == nil)
    }
}
