import DenKit

/// What the presenter asks of the interactor. Every call reports through `LoginInteractorOutput`
/// before it returns.
protocol LoginInteractorInput: AnyObject {
    /// Reads who is logged in in this UI session.
    func loadUser()
    /// Checks the form (`AccountFormRules`), then logs the session in.
    func logIn(_ credentials: Credentials)
    /// Checks the form, creates the account, then logs the session in as it.
    func register(_ account: NewAccount)
    /// Checks the form, sets the new password with the token, then logs the session in.
    func resetPassword(_ reset: PasswordReset)
    /// Checks the form, then changes the logged-in user's password.
    func changePassword(_ change: PasswordChange)
    /// Logs the session out.
    func logOut()
}

/// What the interactor tells the presenter (held weakly by the interactor).
protocol LoginInteractorOutput: AnyObject {
    /// `user` is the logged-in username, nil when nobody is logged in.
    func interactorDidLoad(user: String?)
    /// The session could not be read; `reason` is the service's explanation.
    func interactorCouldNotReadSession(_ reason: String)
    func interactorDidSucceed(_ success: AuthSuccess)
    func interactorDidFail(_ failure: AuthFailure)
}
