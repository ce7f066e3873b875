/// The inputs of the account forms, as the interactor takes them. Passwords and tokens are
/// `Secret`s, so printing a request shows no password.

/// Which input of a form a problem is about.
enum AccountField: Equatable, Sendable {
    case username
    /// The password to log in with, or the new password.
    case password
    /// The new password typed a second time.
    case repeatPassword
    case token
    case currentPassword
}

/// `login`: who wants to log in, and the password to check.
struct Credentials: Equatable, Sendable {
    var username: String
    var password: Secret
}

/// `login/register`: a new account; the password is typed twice.
struct NewAccount: Equatable, Sendable {
    var username: String
    var password: Secret
    var repeated: Secret
}

/// `login/reset`: a token from `den users reset-token <username>` and the new password, twice.
struct PasswordReset: Equatable, Sendable {
    var token: Secret
    var password: Secret
    var repeated: Secret
}

/// `login/password`: the logged-in user's current password and the new one, twice.
struct PasswordChange: Equatable, Sendable {
    var current: Secret
    var password: Secret
    var repeated: Secret
}
