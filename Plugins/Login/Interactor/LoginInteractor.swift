import DenKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The Login module's logic: checks each form against the rules, calls the host's `auth`
/// service and reads the session's user. Knows nothing of display.
///
/// - A form that breaks a rule is never sent (`AccountFormRules`).
/// - A new account, and a password set with a reset token, log the session in at once with the
///   password just chosen, so the user goes on without typing it again.
/// - A service that fails (`HostServiceError`) is reported as `serviceFailed` and logged; nothing
///   here throws or crashes. Passwords are `Secret`s: they reach the service call only, never a
///   message or the log.
final class LoginInteractor: LoginInteractorInput, ModuleInteractor {
    weak var output: (any LoginInteractorOutput)?

    private let auth: any Authenticating
    private let session: any SessionValues
    private let log: (any ModuleLog)?
    /// Told of every login this interactor makes (other modules' `on_login` exports).
    private let listeners: (any LoginListening)?

    init(auth: any Authenticating, session: any SessionValues, log: (any ModuleLog)? = nil,
         listeners: (any LoginListening)? = nil) {
        self.auth = auth
        self.session = session
        self.log = log
        self.listeners = listeners
    }

    func loadUser() {
        do {
            output?.interactorDidLoad(user: try session.loggedInUser())
        } catch {
            log?.log(.warning, "could not read who is logged in: \(error)")
            output?.interactorCouldNotReadSession(String(describing: error))
        }
    }

    func logIn(_ credentials: Credentials) {
        let username = credentials.username.trimmingWhitespace()
        guard check(AccountFormRules.problems(Credentials(username: username, password: credentials.password))) else { return }
        do {
            let answer = try auth.logIn(username: username, password: credentials.password.revealed)
            if let failure = Self.failure(answer, refused: "Wrong username or password.") { return fail(failure) }
            succeed(.loggedIn(username: answer.username ?? AuthRules.fold(username)))
        } catch {
            serviceFailed(AuthCredentials.loginOperation, error)
        }
    }

    func register(_ account: NewAccount) {
        let username = account.username.trimmingWhitespace()
        guard check(AccountFormRules.problems(NewAccount(username: username, password: account.password,
                                                         repeated: account.repeated))) else { return }
        do {
            let answer = try auth.register(username: username, password: account.password.revealed)
            if let failure = Self.failure(answer, refused: "That username is not available; choose another.") {
                return fail(failure)
            }
            let name = answer.username ?? AuthRules.fold(username)
            succeed(.registered(username: name, loginProblem: logInAfterChange(name, account.password)))
        } catch {
            serviceFailed(AuthCredentials.registerOperation, error)
        }
    }

    func resetPassword(_ reset: PasswordReset) {
        let token = reset.token.trimmed()
        guard check(AccountFormRules.problems(PasswordReset(token: token, password: reset.password,
                                                            repeated: reset.repeated))) else { return }
        do {
            let answer = try auth.resetPassword(token: token.revealed, new: reset.password.revealed)
            if let failure = Self.failure(answer, refused: "This reset token is not valid. Ask an administrator for a new one: den users reset-token <username>.") {
                return fail(failure)
            }
            guard let name = answer.username else {
                return succeed(.passwordReset(username: "", loginProblem: "the service did not say whose password it set"))
            }
            succeed(.passwordReset(username: name, loginProblem: logInAfterChange(name, reset.password),
                                   othersLoggedOut: Self.nonEmpty(answer.message)))
        } catch {
            serviceFailed(AuthResetPasswordRequest.operation, error)
        }
    }

    func changePassword(_ change: PasswordChange) {
        guard check(AccountFormRules.problems(change)) else { return }
        do {
            let answer = try auth.changePassword(current: change.current.revealed, new: change.password.revealed)
            if let failure = Self.failure(answer, refused: "The current password is wrong; the password was not changed.") {
                return fail(failure)
            }
            succeed(.passwordChanged(username: answer.username ?? "", othersLoggedOut: Self.nonEmpty(answer.message)))
        } catch {
            serviceFailed(AuthChangePasswordRequest.operation, error)
        }
    }

    func logOut() {
        do {
            let answer = try auth.logOut()
            if let failure = Self.failure(answer, refused: "You could not be logged out.") {
                return fail(failure)
            }
            succeed(.loggedOut(username: answer.username))
        } catch {
            serviceFailed(AuthLogoutRequest.operation, error)
        }
    }

    // MARK: - Private

    /// Reports the problems, if any; true when the form may be sent.
    private func check(_ problems: [FieldProblem]) -> Bool {
        guard problems.isEmpty else {
            fail(.invalid(problems))
            return false
        }
        return true
    }

    private func succeed(_ success: AuthSuccess) {
        switch success {
        case .loggedIn(let username), .registered(let username, nil), .passwordReset(let username, nil, _):
            listeners?.userLoggedIn(username)
        default:
            break
        }
        output?.interactorDidSucceed(success)
    }

    private func fail(_ failure: AuthFailure) {
        output?.interactorDidFail(failure)
    }

    private func serviceFailed(_ operation: String, _ error: any Error) {
        // The error is the host's text about the call; the request (and its password) is never part of it.
        log?.log(.warning, "\(operation) failed: \(error)")
        fail(.serviceFailed(reason: String(describing: error)))
    }

    /// Logs the session in after an account change; nil when that worked, else why not.
    private func logInAfterChange(_ username: String, _ password: Secret) -> String? {
        do {
            let answer = try auth.logIn(username: username, password: password.revealed)
            switch Self.failure(answer, refused: "the new password was not accepted") {
            case nil: return nil
            case .refused(let message)?, .locked(let message)?: return message
            case .invalid?, .serviceFailed?: return "the login was refused"
            }
        } catch {
            log?.log(.warning, "\(AuthCredentials.loginOperation) failed: \(error)")
            return String(describing: error)
        }
    }

    /// nil for `ok`; otherwise the failure, with the service's message or `refused` when it gave none.
    static func failure(_ answer: AuthAnswer, refused: String) -> AuthFailure? {
        switch answer.outcome {
        case .ok:
            return nil
        case .refused:
            return .refused(message: nonEmpty(answer.message) ?? refused)
        case .locked:
            let when = answer.retryAfter.map { "try again after \($0) (UTC)" } ?? "try again later"
            return .locked(message: nonEmpty(answer.message) ?? "This account is locked after too many failed logins; \(when).")
        }
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingWhitespace().isEmpty else { return nil }
        return text
    }
}
