import DenKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns who is logged in, and the outcome of each attempt, into `LoginViewObject`s pushed into
/// the view (with a `LoginErrorViewObject` after a failed attempt) at the end of every input; sends each
/// action to the interactor (log in, create, reset, change, log out) or to the router (another
/// page, go on).
///
/// - Passwords only pass through, from the form to the interactor: none is kept here, so no view
///   object, snapshot or message can hold one, and every page is drawn with empty password fields.
/// - What an attempt did (an error, a notice) describes the latest action only: the next action
///   or `appear` clears it.
/// - After a login (also the one that follows a new account or a reset) the router goes on to
///   `next`, or to main.
final class LoginPresenter: LoginPresenterInput, LoginInteractorOutput, ModulePresenter {
    /// The state a hot swap keeps: never a password.
    struct State: Equatable, Sendable {
        var username: String
        var next: NextRoute?
    }

    weak var view: (any LoginViewInput)?
    private let interactor: any LoginInteractorInput
    private let router: any LoginRouterInput

    let page: LoginPage
    /// The username as typed: a draft, kept across attempts and hot swaps.
    private(set) var username: String
    private(set) var next: NextRoute?
    /// Why the route's `next` was refused: said on the page, since a login then goes to main.
    private(set) var nextProblem: NextRoute.Problem?
    /// Who is logged in; nil when nobody is (or it could not be read).
    private(set) var user: String?
    private var sessionProblem: String?
    /// The action being handled, to word its failure.
    private var attempt: LoginAction?
    private var notices: [LoginViewObject.Notice] = []
    private var loginError: LoginErrorViewObject?
    /// The account was made (or the password reset) but the login after it failed: the page
    /// then offers only the way to the login form.
    private var awaitingLogIn = false
    private var passwordChanged = false
    /// A reset logged the user's other sessions out: the page stays to say so, offering Continue.
    private var resetDone = false

    init(page: LoginPage, next: NextRoute?, nextProblem: NextRoute.Problem? = nil, username: String = "",
         interactor: any LoginInteractorInput, router: any LoginRouterInput) {
        self.page = page
        self.next = next
        self.nextProblem = nextProblem
        self.username = username
        self.interactor = interactor
        self.router = router
    }

    // MARK: - LoginPresenterInput

    func viewDidAppear() {
        clearLatestAction()
        interactor.loadUser()
    }

    func didTrigger(_ action: LoginAction, form: LoginFormInput) {
        clearLatestAction()
        if let typed = form.username { username = typed }
        guard offers(action) else {
            notices.append(.init(kind: .error, text: Self.notOffered(action, on: viewObject)))
            return show()
        }
        attempt = action
        switch action {
        case .logIn:
            interactor.logIn(Credentials(username: username, password: form.password ?? .empty))
        case .register:
            interactor.register(NewAccount(username: username, password: form.password ?? .empty,
                                           repeated: form.repeated ?? .empty))
        case .reset:
            interactor.resetPassword(PasswordReset(token: form.token ?? .empty, password: form.password ?? .empty,
                                                   repeated: form.repeated ?? .empty))
        case .change:
            interactor.changePassword(PasswordChange(current: form.current ?? .empty, password: form.password ?? .empty,
                                                     repeated: form.repeated ?? .empty))
        case .logOut:
            interactor.logOut()
        case .createAccount:
            navigate { router.show(.register, next: next) }
        case .forgotPassword:
            navigate { router.show(.reset, next: next) }
        case .changePassword:
            navigate { router.show(.changePassword, next: next) }
        case .showAccount:
            navigate { router.show(.logIn, next: next) }
        case .showLogIn:
            // Logging in from the change-password page comes back to it.
            let after = page == .changePassword ? NextRoute(trusted: LoginRoutes.route(for: .changePassword, next: next)) : next
            navigate { router.show(.logIn, next: after) }
        case .goOn:
            navigate { router.goOn(to: next) }
        case .unknown:
            show()  // never offered; kept for an exhaustive switch
        }
    }

    // MARK: - LoginInteractorOutput

    func interactorDidLoad(user: String?) {
        self.user = user
        sessionProblem = nil
        show()
    }

    func interactorCouldNotReadSession(_ reason: String) {
        user = nil
        sessionProblem = reason
        show()
    }

    func interactorDidSucceed(_ success: AuthSuccess) {
        switch success {
        case .loggedIn(let name):
            goOn(loggedInAs: name, saying: "Logged in as \(name).")
        case .registered(let name, nil):
            goOn(loggedInAs: name, saying: "Your account \(name) is ready, and you are logged in.")
        case .registered(let name, let problem?):
            awaitingLogIn = true
            notices.append(.init(kind: .warning, text: "Your account \(name) is ready, but logging in failed: "
                + "\(Self.clause(problem)). Log in with your new password."))
        case .passwordReset(let name, nil, let others?):
            // Moving on would drop the notice with this screen: the user reads it here first.
            user = name
            resetDone = true
            notices.append(.init(kind: .success, text: "Your new password is set, and you are logged in as \(name). \(others)"))
        case .passwordReset(let name, nil, nil):
            goOn(loggedInAs: name, saying: "Your new password is set, and you are logged in as \(name).")
        case .passwordReset(let name, let problem?, _):
            awaitingLogIn = true
            let whose = name.isEmpty ? "Your new password is set" : "The new password of \(name) is set"
            notices.append(.init(kind: .warning, text: "\(whose), but logging in failed: \(Self.clause(problem)). "
                + "Log in with the new password."))
        case .passwordChanged(_, let others):
            passwordChanged = true
            notices.append(.init(kind: .success, text: "Your password is changed. Use the new one from now on." + (others.map { " " + $0 } ?? "")))
        case .loggedOut(let name):
            user = nil
            notices.append(.init(kind: .success, text: name.map { "\($0) is logged out." } ?? "You are logged out."))
        }
        show()
    }

    func interactorDidFail(_ failure: AuthFailure) {
        loginError = errorViewObject(failure)
        show()
    }

    // MARK: - State (hot swap)

    var state: State {
        State(username: username, next: next)
    }

    func restore(_ state: State) {
        username = state.username
        next = state.next
        nextProblem = nil
        show()
    }

    // MARK: - View objects

    /// The page for the current state, as `show()` pushes it.
    private var viewObject: LoginViewObject {
        typealias Field = LoginViewObject.Field
        typealias Action = LoginViewObject.Action
        typealias ID = LoginViewObject.FieldID
        typealias Act = LoginViewObject.ActionID
        var shown: [LoginViewObject.Notice] = []
        if let nextProblem { shown.append(Self.notice(for: nextProblem)) }
        if let sessionProblem {
            shown.append(.init(kind: .warning, text: "Could not tell who is logged in (\(Self.clause(sessionProblem))). "
                + "Logging in may fail too; try again in a moment."))
        }
        shown += notices
        let goesOn = next?.route ?? NextRoute.fallback
        // A button label stays short; the route itself is in the page's text.
        let continueLabel = goesOn.count <= 40 ? "Continue to \(goesOn)" : "Continue"
        let newPassword = [Field.secret(ID.password, "New password", autocomplete: "new-password"),
                           Field.secret(ID.repeatPassword, "Repeat new password", autocomplete: "new-password")]
        let usernameField = Field.text(ID.username, "Username", value: username, autocomplete: "username")
        let logInInstead = Action(id: Act.showLogIn, label: "Log in instead", isPrimary: false)
        let onlyLogIn = [Action(id: Act.showLogIn, label: "Log in", isPrimary: true)]

        switch (page, user) {
        case (.logIn, nil):
            return LoginViewObject(
                title: "Log in",
                texts: [next.map { "Log in to go on to \($0.route)." } ?? "Log in with your Den account."],
                notices: shown,
                fields: [usernameField, .secret(ID.password, "Password", autocomplete: "current-password")],
                actions: [Action(id: Act.logIn, label: "Log in", isPrimary: true),
                          Action(id: Act.createAccount, label: "Create account", isPrimary: false),
                          Action(id: Act.forgotPassword, label: "Forgot password", isPrimary: false)])
        case (.logIn, let user?):
            return LoginViewObject(
                title: "Account", texts: ["Logged in as \(user)."] + (next.map { ["Continue goes on to \($0.route)."] } ?? []),
                notices: shown, fields: [],
                actions: [Action(id: Act.goOn, label: continueLabel, isPrimary: true),
                          Action(id: Act.changePassword, label: "Change password", isPrimary: false),
                          Action(id: Act.logOut, label: "Log out", isPrimary: false)])
        case (.register, _):
            var texts = ["A username has \(AuthRules.usernameRule).", "A password has \(AuthRules.passwordRule)."]
            if let user { texts.append("You are logged in as \(user); a new account logs you in as the new user.") }
            return LoginViewObject(
                title: "Create account", texts: texts, notices: shown,
                fields: awaitingLogIn ? [] : [usernameField, .secret(ID.password, "Password", autocomplete: "new-password"),
                                              .secret(ID.repeatPassword, "Repeat password", autocomplete: "new-password")],
                actions: awaitingLogIn ? onlyLogIn : [Action(id: Act.register, label: "Create account", isPrimary: true), logInInstead])
        case (.reset, _):
            return LoginViewObject(
                title: "Reset password",
                texts: ["An administrator makes a reset token for you with `den users reset-token <username>`; it works "
                    + "once, for a limited time (30 minutes unless the administrator set another). Paste it here and choose a new password (\(AuthRules.passwordRule))."],
                notices: shown,
                fields: awaitingLogIn || resetDone ? [] : [.secret(ID.token, "Reset token", autocomplete: "one-time-code")] + newPassword,
                actions: resetDone ? [Action(id: Act.goOn, label: continueLabel, isPrimary: true)]
                    : awaitingLogIn ? onlyLogIn : [Action(id: Act.reset, label: "Set new password", isPrimary: true), logInInstead])
        case (.changePassword, nil):
            return LoginViewObject(
                title: "Change password", texts: ["Nobody is logged in. Log in first, then change your password here."],
                notices: shown, fields: [], actions: onlyLogIn)
        case (.changePassword, let user?):
            return LoginViewObject(
                title: "Change password", texts: ["Logged in as \(user)."], notices: shown,
                fields: [.secret(ID.currentPassword, "Current password", autocomplete: "current-password")] + newPassword,
                actions: [Action(id: Act.change, label: "Change password", isPrimary: true),
                          Action(id: Act.showAccount, label: passwordChanged ? "Done" : "Cancel", isPrimary: false)])
        }
    }

    // MARK: - Private

    private func clearLatestAction() {
        notices = []
        loginError = nil
        attempt = nil
    }

    /// Pushes the page, then the error of the failed attempt if there is one.
    private func show() {
        view?.display(viewObject)
        if let loginError { view?.displayLoginError(loginError) }
    }

    private func navigate(_ move: () -> Void) {
        move()
        show()
    }

    private func goOn(loggedInAs name: String, saying text: String) {
        user = name
        notices.append(.init(kind: .success, text: text))
        router.goOn(to: next)
    }

    private func offers(_ action: LoginAction) -> Bool {
        viewObject.actions.contains { LoginAction(id: $0.id) == action }
    }

    private func errorViewObject(_ failure: AuthFailure) -> LoginErrorViewObject {
        switch failure {
        case .invalid(let problems):
            var fields: [String: String] = [:]
            for problem in problems where fields[Self.fieldID(problem.field)] == nil {
                fields[Self.fieldID(problem.field)] = problem.message
            }
            return LoginErrorViewObject(banner: nil, fieldErrors: fields)
        case .refused(let message):
            return LoginErrorViewObject(banner: message)
        case .locked(let message):
            return LoginErrorViewObject(kind: .warning, banner: message)
        case .serviceFailed(let reason):
            return LoginErrorViewObject(banner: "\(failedAttempt): the host's account service failed "
                + "(\(Self.clause(reason))). Try again in a moment; if it keeps failing, den's log says more.")
        }
    }

    private var failedAttempt: String {
        switch attempt {
        case .logIn: "Could not log in"
        case .register: "Could not create the account"
        case .reset: "Could not set the new password"
        case .change: "Could not change the password"
        case .logOut: "Could not log out"
        default: "That did not work"
        }
    }

    static func fieldID(_ field: AccountField) -> String {
        typealias ID = LoginViewObject.FieldID
        return switch field {
        case .username: ID.username
        case .password: ID.password
        case .repeatPassword: ID.repeatPassword
        case .token: ID.token
        case .currentPassword: ID.currentPassword
        }
    }

    static func notice(for problem: NextRoute.Problem) -> LoginViewObject.Notice {
        switch problem {
        case .notARoute(let reason):
            .init(kind: .warning, text: "The link's next screen cannot be opened (\(reason)), so you go on to "
                + "\(NextRoute.fallback) after logging in.")
        case .loginForm:
            .init(kind: .info, text: "The link asked to come back to this login form after logging in; you go on to "
                + "\(NextRoute.fallback) instead.")
        }
    }

    static func notOffered(_ action: LoginAction, on page: LoginViewObject) -> String {
        let buttons = page.actions.map(\.label).joined(separator: ", ")
        if case .unknown(let id) = action {
            return "This page has no button '\(id)'. Its buttons: \(buttons)."
        }
        return "That button is not on this page any more. Its buttons: \(buttons)."
    }

    /// A service's message as a clause inside our sentence: without its closing period.
    static func clause(_ text: String) -> String {
        var text = text.trimmingWhitespace()
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
