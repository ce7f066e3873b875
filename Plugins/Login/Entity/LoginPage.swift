/// The pages of the Login module, one per route (`LoginRoutes` has their patterns).
enum LoginPage: String, Equatable, Sendable, CaseIterable {
    /// `login`: the login form, or the account of whoever is logged in.
    case logIn
    /// `login/register`: create an account.
    case register
    /// `login/reset`: set a new password with a token from `den users reset-token`.
    case reset
    /// `login/password`: change the logged-in user's password (a guarded route).
    case changePassword
}
