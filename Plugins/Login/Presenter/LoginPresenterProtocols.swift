import DenKit

/// What the view tells the presenter. Each call ends with the presenter displaying a page in the
/// view (`LoginViewInput`).
protocol LoginPresenterInput: AnyObject {
    func viewDidAppear()
    func didTrigger(_ action: LoginAction, form: LoginFormInput)
}

/// The user's actions (button ids on the screen, `LoginViewObject.ActionID`).
enum LoginAction: Equatable, Sendable {
    /// Log in with the form's username and password.
    case logIn
    /// Open the create-account page.
    case createAccount
    /// Open the reset-password page.
    case forgotPassword
    /// Create the account in the form.
    case register
    /// Set a new password with the form's token.
    case reset
    /// Change the password (current, new, repeat).
    case change
    /// Open the change-password page.
    case changePassword
    case logOut
    /// Go on to `next` (or main) as the logged-in user.
    case goOn
    /// Open the login page.
    case showLogIn
    /// Back to the account page from the change-password page.
    case showAccount
    case unknown(String)

    init(id: String) {
        typealias ID = LoginViewObject.ActionID
        switch id {
        case ID.logIn: self = .logIn
        case ID.createAccount: self = .createAccount
        case ID.forgotPassword: self = .forgotPassword
        case ID.register: self = .register
        case ID.reset: self = .reset
        case ID.change: self = .change
        case ID.changePassword: self = .changePassword
        case ID.logOut: self = .logOut
        case ID.goOn: self = .goOn
        case ID.showLogIn: self = .showLogIn
        case ID.showAccount: self = .showAccount
        default: self = .unknown(id)
        }
    }
}

/// The submitted form values (nil when the page has no such field or it was not sent).
/// Printing one shows no password: they are `Secret`s.
struct LoginFormInput: Equatable, Sendable {
    var username: String?
    var password: Secret?
    var repeated: Secret?
    var token: Secret?
    var current: Secret?

    init(username: String? = nil, password: Secret? = nil, repeated: Secret? = nil, token: Secret? = nil,
         current: Secret? = nil) {
        self.username = username
        self.password = password
        self.repeated = repeated
        self.token = token
        self.current = current
    }
}
