import DenKit
import Testing
@testable import LoginModule

@Suite("Login presenter")
struct LoginPresenterTests {
    let interactor = MockLoginInteractor()
    let router = MockLoginRouter()
    let view = MockLoginView()

    func makePresenter(_ page: LoginPage = .logIn, next: NextRoute? = nil, nextProblem: NextRoute.Problem? = nil,
                       user: String? = nil) -> LoginPresenter {
        let presenter = LoginPresenter(page: page, next: next, nextProblem: nextProblem, interactor: interactor, router: router)
        interactor.output = presenter
        interactor.user = user
        presenter.view = view
        presenter.viewDidAppear()
        return presenter
    }

    typealias ID = LoginViewObject.FieldID

    // MARK: The login form

    @Test("on appear it asks who is logged in; with nobody it shows the login form with an empty password")
    func loginForm() throws {
        _ = makePresenter()

        #expect(interactor.calls == [.loadUser])
        let shown = try #require(view.displayed.last)
        #expect(shown.title == "Log in")
        #expect(shown.fields.map(\.id) == [ID.username, ID.password])
        #expect(shown.fields.map(\.isSecret) == [false, true])
        #expect(shown.actions.map(\.label) == ["Log in", "Create account", "Forgot password"])
        #expect(view.errors.isEmpty)
    }

    @Test("each form's fields tell a password manager what they hold", arguments: [
        (LoginPage.logIn, ["username", "current-password"]),
        (.register, ["username", "new-password", "new-password"]),
        (.reset, ["one-time-code", "new-password", "new-password"]),
    ])
    func autocomplete(page: LoginPage, expected: [String]) throws {
        _ = makePresenter(page)
        let shown = try #require(view.displayed.last)
        #expect(shown.fields.map { $0.autocomplete ?? "(none)" } == expected)
    }

    @Test("changing the password: the current one, then the new one twice")
    func changePasswordAutocomplete() throws {
        _ = makePresenter(.changePassword, user: "alice")
        let shown = try #require(view.displayed.last)
        #expect(shown.fields.map { $0.autocomplete ?? "(none)" } == ["current-password", "new-password", "new-password"])
    }

    @Test("with next, the form says where the login goes on to")
    func formNamesNext() throws {
        _ = makePresenter(next: nextRoute("jogs/42"))

        #expect(try #require(view.displayed.last).texts == ["Log in to go on to jogs/42."])
    }

    @Test("Log in passes the typed username and password to the interactor")
    func logInSendsForm() {
        let presenter = makePresenter()

        presenter.didTrigger(.logIn, form: LoginFormInput(username: "alice", password: "correct horse"))

        #expect(interactor.calls.last == .logIn(Credentials(username: "alice", password: "correct horse")))
    }

    @Test("a successful login goes on to next")
    func successGoesToNext() {
        let presenter = makePresenter(next: nextRoute("jogs"))
        interactor.outcome = .success(.loggedIn(username: "alice"))

        presenter.didTrigger(.logIn, form: LoginFormInput(username: "alice", password: "correct horse"))

        #expect(router.calls == [.goOn(nextRoute("jogs"))])
        #expect(presenter.user == "alice")
    }

    @Test("a successful login without next goes on with no route, which the router makes main")
    func successWithoutNext() {
        let presenter = makePresenter()
        interactor.outcome = .success(.loggedIn(username: "alice"))

        presenter.didTrigger(.logIn, form: LoginFormInput(username: "alice", password: "correct horse"))

        #expect(router.calls == [.goOn(nil)])
    }

    @Test("a wrong password: the view is told the error; the form comes back with the username kept and no password")
    func wrongPassword() throws {
        let presenter = makePresenter()
        interactor.outcome = .failure(.refused(message: "Wrong username or password."))

        presenter.didTrigger(.logIn, form: LoginFormInput(username: "alice", password: "guess-1234"))

        #expect(view.errors == [LoginErrorViewObject(kind: .error, banner: "Wrong username or password.")])
        let form = try #require(view.displayed.last)
        #expect(form.fields.first { $0.id == ID.username }?.value == "alice")
        #expect(form.fields.first { $0.id == ID.password }?.value == "")
        #expect(view.calls.last == .loginError(LoginErrorViewObject(kind: .error, banner: "Wrong username or password.")),
                "the error comes after the page it belongs to")
        #expect(router.calls.isEmpty)
    }

    @Test("a locked account shows the service's message as a warning")
    func locked() {
        let presenter = makePresenter()
        interactor.outcome = .failure(.locked(message: "This account is locked for 15 minutes (until 12:30 UTC)."))

        presenter.didTrigger(.logIn, form: LoginFormInput(username: "alice", password: "guess-1234"))

        #expect(view.errors == [LoginErrorViewObject(kind: .warning, banner: "This account is locked for 15 minutes (until 12:30 UTC).")])
    }

    @Test("rule problems go under their fields, without a banner")
    func ruleProblems() {
        let presenter = makePresenter(.register)
        interactor.outcome = .failure(.invalid([
            FieldProblem(field: .username, message: "Choose a username."),
            FieldProblem(field: .repeatPassword, message: "The two passwords differ."),
        ]))

        presenter.didTrigger(.register, form: LoginFormInput(username: "", password: "a", repeated: "b"))

        #expect(view.errors == [LoginErrorViewObject(banner: nil, fieldErrors: [
            ID.username: "Choose a username.", ID.repeatPassword: "The two passwords differ.",
        ])])
    }

    @Test("a failing service shows a banner naming the attempt and the service's reason")
    func serviceFailure() throws {
        let presenter = makePresenter()
        interactor.outcome = .failure(.serviceFailed(reason: "auth.login: no host is attached"))

        presenter.didTrigger(.logIn, form: LoginFormInput(username: "alice", password: "correct horse"))

        let error = try #require(view.errors.last)
        #expect(error.kind == .error)
        #expect(error.banner == "Could not log in: the host's account service failed (auth.login: no host is attached). "
            + "Try again in a moment; if it keeps failing, den's log says more.")
    }

    @Test("an error describes the latest action only: the next action clears it")
    func errorsDoNotLinger() {
        let presenter = makePresenter()
        interactor.outcome = .failure(.refused(message: "Wrong username or password."))
        presenter.didTrigger(.logIn, form: LoginFormInput(username: "alice", password: "guess-1234"))
        interactor.outcome = nil

        presenter.didTrigger(.createAccount, form: LoginFormInput(username: "alice", password: ""))

        #expect(view.calls.last.map { if case .display = $0 { true } else { false } } == true)
        #expect(view.errors.count == 1)
    }

    @Test("an unsafe next is said on the page")
    func unsafeNextNotice() throws {
        _ = makePresenter(nextProblem: .notARoute(reason: "it starts with a scheme, like a web address"))

        let notice = try #require(view.displayed.last?.notices.first)
        #expect(notice.kind == .warning)
        #expect(notice.text.contains("it starts with a scheme"))
        #expect(notice.text.contains("you go on to main"))
    }

    @Test("Create account and Forgot password open their pages, carrying next")
    func otherPages() {
        let presenter = makePresenter(next: nextRoute("jogs"))

        presenter.didTrigger(.createAccount, form: LoginFormInput())
        presenter.didTrigger(.forgotPassword, form: LoginFormInput())

        #expect(router.calls == [.show(.register, next: nextRoute("jogs")), .show(.reset, next: nextRoute("jogs"))])
    }

    @Test("a button the page does not have is refused, listing the page's buttons; nothing is sent")
    func unknownAction() throws {
        let presenter = makePresenter()

        presenter.didTrigger(.unknown("launch"), form: LoginFormInput())
        presenter.didTrigger(.logOut, form: LoginFormInput())

        #expect(interactor.calls == [.loadUser])
        #expect(router.calls.isEmpty)
        let notices = view.displayed.suffix(2).compactMap(\.notices.first)
        #expect(notices.map(\.kind) == [.error, .error])
        #expect(notices.first?.text == "This page has no button 'launch'. Its buttons: Log in, Create account, Forgot password.")
    }

    // MARK: Logged in

    @Test("when someone is logged in, login shows the account: Continue to next or main, Change password, Log out")
    func account() throws {
        _ = makePresenter(user: "alice")

        let shown = try #require(view.displayed.last)
        #expect(shown.title == "Account")
        #expect(shown.texts == ["Logged in as alice."])
        #expect(shown.fields.isEmpty)
        #expect(shown.actions.map(\.label) == ["Continue to main", "Change password", "Log out"])
    }

    @Test("with next, the account names it; a long route keeps the button label short")
    func accountNamesNext() throws {
        let long = "notes/" + String(repeating: "n", count: 60)
        _ = makePresenter(next: nextRoute(long), user: "alice")

        let shown = try #require(view.displayed.last)
        #expect(shown.texts == ["Logged in as alice.", "Continue goes on to \(long)."])
        #expect(shown.actions.first?.label == "Continue")
        _ = makePresenter(next: nextRoute("jogs/7"), user: "alice")
        #expect(view.displayed.last?.actions.first?.label == "Continue to jogs/7")
    }

    @Test("Continue goes on to next; Change password opens its page")
    func accountActions() {
        let presenter = makePresenter(next: nextRoute("jogs"), user: "alice")

        presenter.didTrigger(.goOn, form: LoginFormInput())
        presenter.didTrigger(.changePassword, form: LoginFormInput())

        #expect(router.calls == [.goOn(nextRoute("jogs")), .show(.changePassword, next: nextRoute("jogs"))])
    }

    @Test("Log out asks the interactor, then shows the login form saying who was logged out")
    func logOut() throws {
        let presenter = makePresenter(user: "alice")
        interactor.outcome = .success(.loggedOut(username: "alice"))

        presenter.didTrigger(.logOut, form: LoginFormInput())

        #expect(interactor.calls.last == .logOut)
        let shown = try #require(view.displayed.last)
        #expect(shown.title == "Log in")
        #expect(shown.notices == [.init(kind: .success, text: "alice is logged out.")])
        #expect(presenter.user == nil)
    }

    // MARK: Other pages

    @Test("a new account that is logged in goes on to next")
    func registered() {
        let presenter = makePresenter(.register, next: nextRoute("jogs"))
        interactor.outcome = .success(.registered(username: "bob", loginProblem: nil))

        presenter.didTrigger(.register, form: LoginFormInput(username: "bob", password: "long enough 1", repeated: "long enough 1"))

        #expect(interactor.calls.last == .register(NewAccount(username: "bob", password: "long enough 1", repeated: "long enough 1")))
        #expect(router.calls == [.goOn(nextRoute("jogs"))])
    }

    @Test("a new account that could not be logged in says why and offers only Log in")
    func registeredNotLoggedIn() throws {
        let presenter = makePresenter(.register)
        interactor.outcome = .success(.registered(username: "bob", loginProblem: "the service is busy."))

        presenter.didTrigger(.register, form: LoginFormInput(username: "bob", password: "long enough 1", repeated: "long enough 1"))

        let shown = try #require(view.displayed.last)
        #expect(shown.notices.first?.text == "Your account bob is ready, but logging in failed: the service is busy. "
            + "Log in with your new password.")
        #expect(shown.fields.isEmpty)
        #expect(shown.actions.map(\.id) == [LoginViewObject.ActionID.showLogIn])
        #expect(router.calls.isEmpty)
    }

    @Test("reset sends the token and the new password twice")
    func reset() {
        let presenter = makePresenter(.reset)

        presenter.didTrigger(.reset, form: LoginFormInput(password: "new password 1", repeated: "new password 1", token: "abc"))

        #expect(interactor.calls.last == .resetPassword(PasswordReset(token: "abc", password: "new password 1",
                                                                      repeated: "new password 1")))
    }

    @Test("change password: the page has current, new and repeat; success says so and Cancel becomes Done")
    func changePassword() throws {
        let presenter = makePresenter(.changePassword, user: "alice")
        #expect(view.displayed.last?.fields.map(\.id) == [ID.currentPassword, ID.password, ID.repeatPassword])
        interactor.outcome = .success(.passwordChanged(username: "alice"))

        presenter.didTrigger(.change, form: LoginFormInput(password: "new password 1", repeated: "new password 1",
                                                           current: "old password 1"))

        let shown = try #require(view.displayed.last)
        #expect(shown.notices == [.init(kind: .success, text: "Your password is changed. Use the new one from now on.")])
        #expect(shown.actions.map(\.label) == ["Change password", "Done"])
        #expect(shown.fields.allSatisfy { $0.isSecret && $0.value.isEmpty })
    }

    @Test("a change or reset that logged other sessions out says how many; the reset page stays to say it")
    func otherSessionsLoggedOut() throws {
        let change = makePresenter(.changePassword, user: "alice")
        interactor.outcome = .success(.passwordChanged(username: "alice", othersLoggedOut: "2 other sessions were logged out."))
        change.didTrigger(.change, form: LoginFormInput(password: "new password 1", repeated: "new password 1", current: "old password 1"))
        #expect(view.displayed.last?.notices.last?.text == "Your password is changed. Use the new one from now on. 2 other sessions were logged out.")

        let reset = makePresenter(.reset, next: nextRoute("jogs"))
        interactor.outcome = .success(.passwordReset(username: "alice", loginProblem: nil, othersLoggedOut: "1 other session was logged out."))
        reset.didTrigger(.reset, form: LoginFormInput(password: "new password 1", repeated: "new password 1", token: "abc"))
        let shown = try #require(view.displayed.last)
        #expect(shown.notices.last?.text == "Your new password is set, and you are logged in as alice. 1 other session was logged out.")
        #expect(shown.fields.isEmpty)
        #expect(shown.actions.map(\.label) == ["Continue to jogs"])
        #expect(router.calls.isEmpty, "the page stays until Continue")
        reset.didTrigger(.goOn, form: LoginFormInput())
        #expect(router.calls == [.goOn(nextRoute("jogs"))])
    }

    @Test("the change-password page with nobody logged in offers Log in, which comes back to it afterwards")
    func changePasswordLoggedOut() throws {
        let presenter = makePresenter(.changePassword, next: nextRoute("jogs"))
        #expect(view.displayed.last?.actions.map(\.label) == ["Log in"])

        presenter.didTrigger(.showLogIn, form: LoginFormInput())

        #expect(router.calls == [.show(.logIn, next: nextRoute("login/password?next=jogs"))])
    }

    // MARK: State

    @Test("the hot-swap state is the typed username and next; restoring it shows them again")
    func state() throws {
        let presenter = makePresenter(next: nextRoute("jogs"))
        presenter.didTrigger(.unknown("x"), form: LoginFormInput(username: "alice", password: "correct horse"))
        #expect(presenter.state == LoginPresenter.State(username: "alice", next: nextRoute("jogs")))

        let other = makePresenter()
        other.restore(presenter.state)
        other.viewDidAppear()

        #expect(view.displayed.last?.fields.first?.value == "alice")
        #expect(view.displayed.last?.texts == ["Log in to go on to jogs."])
    }

    @Test("the presenter holds its view weakly")
    func viewIsWeak() {
        let presenter = LoginPresenter(page: .logIn, next: nil, interactor: interactor, router: router)
        interactor.output = presenter
        weak var weakView: MockLoginView?
        do {
            let transient = MockLoginView()
            weakView = transient
            presenter.view = transient
        }
        #expect(weakView == nil)
        presenter.viewDidAppear()  // must not crash without a view
    }
}
