/// What became of an account operation, as the interactor reports it to the presenter.

/// A request that was done.
enum AuthSuccess: Equatable, Sendable {
    /// The session is logged in as `username` (the folded name the service answered).
    case loggedIn(username: String)
    /// The account exists now. `loginProblem` is nil when the session was logged in as it too,
    /// else why that login did not happen (the user then logs in on the login page).
    case registered(username: String, loginProblem: String?)
    /// The token set a new password. `loginProblem` as for `registered`. `othersLoggedOut`: what
    /// the service said about the user's other sessions it logged out ("2 other sessions were
    /// logged out."), nil when there were none.
    case passwordReset(username: String, loginProblem: String?, othersLoggedOut: String? = nil)
    case passwordChanged(username: String, othersLoggedOut: String? = nil)
    /// Nobody is logged in now; `username` is who was, when the service said.
    case loggedOut(username: String?)
}

/// A request that was not done, and why, in words for the user.
enum AuthFailure: Error, Equatable, Sendable {
    /// The form breaks a rule (`AuthRules`, two passwords that differ); nothing was sent.
    case invalid([FieldProblem])
    /// The service said no: a wrong password, a taken username, a bad token.
    case refused(message: String)
    /// Too many failed attempts; the message says when to try again.
    case locked(message: String)
    /// The service could not answer (`HostServiceError`); `reason` is its explanation.
    case serviceFailed(reason: String)
}

/// One input a rule refuses, and what to type instead.
struct FieldProblem: Equatable, Sendable {
    var field: AccountField
    var message: String
}
