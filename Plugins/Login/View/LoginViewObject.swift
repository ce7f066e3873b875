/// Everything a login page shows, already worded by the presenter: strings only, no entities.
/// A secret field (password, token) is drawn empty whatever it holds: see `LoginView`.
struct LoginViewObject: Equatable, Sendable {
    /// The ids of the fields (also the keys of an action's `fields`).
    enum FieldID {
        static let username = "username"
        /// The password to log in with, or the new password.
        static let password = "password"
        static let repeatPassword = "repeat"
        static let token = "token"
        static let currentPassword = "current"
    }

    /// The ids of the buttons.
    enum ActionID {
        static let logIn = "log-in"
        static let createAccount = "create-account"
        static let forgotPassword = "forgot-password"
        static let register = "register"
        static let reset = "reset"
        static let change = "change"
        static let changePassword = "change-password"
        static let logOut = "log-out"
        static let goOn = "continue"
        static let showLogIn = "show-login"
        static let showAccount = "show-account"
    }

    struct Field: Equatable, Sendable {
        var id: String
        var label: String
        var value: String
        /// A password or token: drawn as a password field, always empty.
        var isSecret: Bool
        var placeholder: String?
        /// What a browser's password manager should fill in ("username", "current-password",
        /// "new-password", "one-time-code").
        var autocomplete: String?

        static func text(_ id: String, _ label: String, value: String, placeholder: String? = nil, autocomplete: String? = nil) -> Field {
            Field(id: id, label: label, value: value, isSecret: false, placeholder: placeholder, autocomplete: autocomplete)
        }

        static func secret(_ id: String, _ label: String, autocomplete: String) -> Field {
            Field(id: id, label: label, value: "", isSecret: true, autocomplete: autocomplete)
        }
    }

    struct Action: Equatable, Sendable {
        var id: String
        var label: String
        var isPrimary: Bool
    }

    struct Notice: Equatable, Sendable {
        enum Kind: Equatable, Sendable { case info, success, warning, error }
        var kind: Kind
        var text: String
    }

    var title: String
    /// Lines of explanation under the title.
    var texts: [String]
    var notices: [Notice]
    var fields: [Field]
    var actions: [Action]

    /// Before the first `appear` is handled.
    static let empty = LoginViewObject(title: "Log in", texts: [], notices: [], fields: [], actions: [])
}

/// Why the last attempt failed, as the presenter tells the view to show it (the seed's
/// `displayLoginError`): wrong password, locked account, a rule the form breaks, a failing service.
struct LoginErrorViewObject: Equatable, Sendable {
    var kind: LoginViewObject.Notice.Kind
    /// A banner above the form; nil when the messages under the fields say it all.
    var banner: String?
    /// Messages under fields, by field id.
    var fieldErrors: [String: String]

    init(kind: LoginViewObject.Notice.Kind = .error, banner: String?, fieldErrors: [String: String] = [:]) {
        self.kind = kind
        self.banner = banner
        self.fieldErrors = fieldErrors
    }
}
