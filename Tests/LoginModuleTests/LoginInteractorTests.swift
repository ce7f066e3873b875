import DenKit
import Foundation
import Testing
@testable import LoginModule

@Suite("Login interactor")
struct LoginInteractorTests {
    let session = InMemorySessionValues()
    let auth: MockAuth
    let log = RecordingLog()
    let output = MockInteractorOutput()
    let interactor: LoginInteractor

    init() {
        auth = MockAuth(session: session)
        interactor = LoginInteractor(auth: auth, session: session, log: log)
        interactor.output = output
    }

    static let serviceDown = HostServiceError(service: "auth.login", status: 6, message: "auth.login: the account store is locked")

    // MARK: Session

    @Test("loading the user reports who the session says is logged in, or nobody")
    func loadUser() throws {
        interactor.loadUser()
        try session.set("alice", forKey: SessionLimits.userKey)
        interactor.loadUser()

        #expect(output.calls == [.loaded(nil), .loaded("alice")])
    }

    @Test("a session that cannot be read is reported with the service's reason, and logged")
    func unreadableSession() {
        let interactor = LoginInteractor(auth: auth, session: FailingSession(), log: log)
        interactor.output = output

        interactor.loadUser()

        #expect(output.calls == [.sessionUnreadable("session.get: the session store is gone")])
        #expect(log.lines.contains { $0.contains("the session store is gone") })
    }

    // MARK: Log in

    @Test("a good login sends the typed name and password and reports the username the service answered")
    func goodLogin() {
        auth.logInAnswer = AuthAnswer(outcome: .ok, username: "alice")

        interactor.logIn(Credentials(username: "Alice", password: "correct horse"))

        #expect(auth.calls == [.logIn(username: "Alice", password: "correct horse")])
        #expect(output.calls == [.succeeded(.loggedIn(username: "alice"))])
    }

    @Test("spaces around the username are dropped; the password is sent exactly as typed")
    func trimsUsernameOnly() {
        interactor.logIn(Credentials(username: "  alice ", password: " spaced pass "))

        #expect(auth.calls == [.logIn(username: "alice", password: " spaced pass ")])
    }

    @Test("a wrong password is reported as refused with the service's message")
    func wrongPassword() {
        auth.logInAnswer = AuthAnswer(outcome: .refused, message: "Wrong username or password.")

        interactor.logIn(Credentials(username: "alice", password: "guess-1234"))

        #expect(output.calls == [.failed(.refused(message: "Wrong username or password."))])
    }

    @Test("a locked account is reported with the service's message saying when to try again")
    func locked() {
        let message = "Too many failed logins: this account is locked for 15 minutes (until 12:30 UTC)."
        auth.logInAnswer = AuthAnswer(outcome: .locked, message: message, retryAfter: "2026-10-02T12:30:00Z")

        interactor.logIn(Credentials(username: "alice", password: "guess-1234"))

        #expect(output.calls == [.failed(.locked(message: message))])
    }

    @Test("a locked answer without a message still says when to try again, from retry_after")
    func lockedWithoutMessage() {
        auth.logInAnswer = AuthAnswer(outcome: .locked, retryAfter: "2026-10-02T12:30:00Z")

        interactor.logIn(Credentials(username: "alice", password: "guess-1234"))

        #expect(output.calls == [.failed(.locked(message:
            "This account is locked after too many failed logins; try again after 2026-10-02T12:30:00Z (UTC)."))])
    }

    @Test("an empty username and password are refused before any call, each under its field")
    func emptyLogin() {
        interactor.logIn(Credentials(username: " ", password: ""))

        #expect(auth.calls.isEmpty)
        #expect(output.calls == [.failed(.invalid([
            FieldProblem(field: .username, message: "Type your username."),
            FieldProblem(field: .password, message: "Type your password."),
        ]))])
    }

    @Test("a username no account can have is never sent", arguments: ["al", "no/slash", "white space", String(repeating: "a", count: 33)])
    func impossibleUsername(name: String) throws {
        interactor.logIn(Credentials(username: name, password: "whatever-1"))

        #expect(auth.calls.isEmpty)
        guard case .failed(.invalid(let problems)) = try #require(output.calls.first) else {
            Issue.record("expected a rule problem, got \(output.calls)")
            return
        }
        #expect(problems.map(\.field) == [.username])
        #expect(problems.first?.message.contains(AuthRules.usernameRule) == true)
    }

    // MARK: Register

    @Test("register with a repeated password that differs is refused before any call")
    func registerMismatch() {
        interactor.register(NewAccount(username: "bob", password: "long enough 1", repeated: "long enough 2"))

        #expect(auth.calls.isEmpty)
        #expect(output.calls == [.failed(.invalid([FieldProblem(field: .repeatPassword, message:
            "The two passwords differ. Type the same new password in both fields.")]))])
    }

    @Test("register with a short password names the rule and the length, never the password")
    func registerShortPassword() throws {
        interactor.register(NewAccount(username: "bob", password: "hunter2", repeated: "hunter2"))

        #expect(auth.calls.isEmpty)
        #expect(output.calls == [.failed(.invalid([FieldProblem(field: .password, message:
            "The password is 7 characters long; use at least 8 characters.")]))])
    }

    @Test("register creates the account, then logs in as it with the same password")
    func registerLogsIn() throws {
        auth.registerAnswer = AuthAnswer(outcome: .ok, username: "bob")
        auth.logInAnswer = AuthAnswer(outcome: .ok, username: "bob")

        interactor.register(NewAccount(username: "Bob", password: "long enough 1", repeated: "long enough 1"))

        #expect(auth.calls == [.register(username: "Bob", password: "long enough 1"),
                               .logIn(username: "bob", password: "long enough 1")])
        #expect(output.calls == [.succeeded(.registered(username: "bob", loginProblem: nil))])
        #expect(try session.loggedInUser() == "bob")
    }

    @Test("a taken username is refused with the service's message, and no login follows")
    func registerTaken() {
        auth.registerAnswer = AuthAnswer(outcome: .refused, message: "That username is not available; choose another.")

        interactor.register(NewAccount(username: "bob", password: "long enough 1", repeated: "long enough 1"))

        #expect(auth.calls.count == 1)
        #expect(output.calls == [.failed(.refused(message: "That username is not available; choose another."))])
    }

    @Test("when the login after a new account fails, the account is still reported, with why the login failed")
    func registerLoginFails() {
        auth.registerAnswer = AuthAnswer(outcome: .ok, username: "bob")
        auth.logInAnswer = AuthAnswer(outcome: .locked, message: "This account is locked for 15 minutes.")

        interactor.register(NewAccount(username: "bob", password: "long enough 1", repeated: "long enough 1"))

        #expect(output.calls == [.succeeded(.registered(username: "bob", loginProblem: "This account is locked for 15 minutes."))])
    }

    // MARK: Reset

    @Test("reset with a bad token reports the service's refusal and logs nobody in")
    func resetBadToken() throws {
        let message = "This reset token is not valid (mistyped, already used, or replaced by a newer one)."
        auth.resetAnswer = AuthAnswer(outcome: .refused, message: message)

        interactor.resetPassword(PasswordReset(token: "0123456789abcdef0123456789abcdef", password: "new password 1",
                                               repeated: "new password 1"))

        #expect(auth.calls == [.resetPassword(token: "0123456789abcdef0123456789abcdef", new: "new password 1")])
        #expect(output.calls == [.failed(.refused(message: message))])
        #expect(try session.loggedInUser() == nil)
    }

    @Test("a pasted token loses its surrounding white space; after the reset the user the service names is logged in")
    func resetLogsIn() {
        auth.resetAnswer = AuthAnswer(outcome: .ok, username: "carol")
        auth.logInAnswer = AuthAnswer(outcome: .ok, username: "carol")

        interactor.resetPassword(PasswordReset(token: " 0123abcd\n", password: "new password 1", repeated: "new password 1"))

        #expect(auth.calls == [.resetPassword(token: "0123abcd", new: "new password 1"),
                               .logIn(username: "carol", password: "new password 1")])
        #expect(output.calls == [.succeeded(.passwordReset(username: "carol", loginProblem: nil))])
    }

    @Test("reset without a token, or with a new password that differs, is refused before any call")
    func resetIncomplete() {
        interactor.resetPassword(PasswordReset(token: "  ", password: "new password 1", repeated: "new password 2"))

        #expect(auth.calls.isEmpty)
        #expect(output.calls == [.failed(.invalid([
            FieldProblem(field: .token, message: "Paste the reset token that `den users reset-token <username>` printed."),
            FieldProblem(field: .repeatPassword, message: "The two passwords differ. Type the same new password in both fields."),
        ]))])
    }

    // MARK: Change password

    @Test("change password sends the current and the new password and reports the change")
    func change() {
        interactor.changePassword(PasswordChange(current: "old password 1", password: "new password 1",
                                                 repeated: "new password 1"))

        #expect(auth.calls == [.changePassword(current: "old password 1", new: "new password 1")])
        #expect(output.calls == [.succeeded(.passwordChanged(username: "alice"))])
    }

    @Test("a wrong current password is reported as refused with the service's message")
    func changeWrongCurrent() {
        auth.changeAnswer = AuthAnswer(outcome: .refused, message: "The current password is wrong; the password was not changed.")

        interactor.changePassword(PasswordChange(current: "not it at all", password: "new password 1",
                                                 repeated: "new password 1"))

        #expect(output.calls == [.failed(.refused(message: "The current password is wrong; the password was not changed."))])
    }

    @Test("a new password equal to the current one, or a missing current one, is refused before any call")
    func changeRules() {
        interactor.changePassword(PasswordChange(current: "same password", password: "same password", repeated: "same password"))
        interactor.changePassword(PasswordChange(current: "", password: "new password 1", repeated: "new password 1"))

        #expect(auth.calls.isEmpty)
        #expect(output.calls == [
            .failed(.invalid([FieldProblem(field: .password, message:
                "The new password is the same as the current one. Choose a different one.")])),
            .failed(.invalid([FieldProblem(field: .currentPassword, message: "Type your current password.")])),
        ])
    }

    // MARK: Log out

    @Test("log out clears the session's user and reports who was logged out")
    func logOut() throws {
        try session.set("alice", forKey: SessionLimits.userKey)

        interactor.logOut()

        #expect(auth.calls == [.logOut])
        #expect(output.calls == [.succeeded(.loggedOut(username: "alice"))])
        #expect(try session.loggedInUser() == nil)
    }

    // MARK: Failing service

    @Test("a failing service is reported as serviceFailed with its reason and logged, never with the password",
          arguments: ["logIn", "register", "reset", "change", "logOut"])
    func serviceFailure(operation: String) throws {
        auth.failure = Self.serviceDown
        let password = Secret("Sesame-Opens-42")

        switch operation {
        case "logIn": interactor.logIn(Credentials(username: "alice", password: password))
        case "register": interactor.register(NewAccount(username: "alice", password: password, repeated: password))
        case "reset": interactor.resetPassword(PasswordReset(token: "0123abcd", password: password, repeated: password))
        case "change": interactor.changePassword(PasswordChange(current: "old password 1", password: password, repeated: password))
        default: interactor.logOut()
        }

        #expect(output.calls == [.failed(.serviceFailed(reason: "auth.login: the account store is locked"))])
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.contains("the account store is locked") == true)
        #expect(!log.lines.joined().contains(password.revealed))
    }

    @Test("the interactor holds its output weakly and talks to nobody without one")
    func outputIsWeak() {
        let interactor = LoginInteractor(auth: auth, session: session)
        weak var weakOutput: MockInteractorOutput?
        do {
            let transient = MockInteractorOutput()
            weakOutput = transient
            interactor.output = transient
        }
        #expect(weakOutput == nil)
        interactor.logIn(Credentials(username: "alice", password: "correct horse"))  // must not crash
        #expect(auth.calls.count == 1)
    }
}
