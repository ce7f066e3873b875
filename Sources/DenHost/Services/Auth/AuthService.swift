import DenLibraryContracts
import DenKit
import FoundationEssentials
import Logging

/// Host service `auth.*` (see `AuthCredentials` ... `AuthAnswer` in DenKit for the JSON): the
/// `AccountBook` behind JSON, plus the calling UI session's user (`SessionStore`).
///
/// Log lines name the user and the outcome, never a password; requests are never logged.
package struct AuthService: HostService {
    package let accounts: AccountBook
    package let sessions: SessionStore
    let logger: Logger?

    package var operations: [String] {
        [AuthCredentials.registerOperation, AuthCredentials.loginOperation, AuthLogoutRequest.operation,
         AuthChangePasswordRequest.operation, AuthResetPasswordRequest.operation]
    }

    package init(accounts: AccountBook, sessions: SessionStore, logger: Logger? = nil) {
        self.accounts = accounts
        self.sessions = sessions
        self.logger = logger
    }

    package func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data {
        switch operation {
        case AuthCredentials.registerOperation:
            let request = try decode(AuthCredentials.self, request, for: operation)
            let answer = try accounts.register(username: request.username, password: request.password)
            log(operation, answer, username: request.username)
            return try encode(answer, for: operation)

        case AuthCredentials.loginOperation:
            let request = try decode(AuthCredentials.self, request, for: operation)
            // The rules are public, so refusing a malformed name reveals nothing about accounts.
            if let problem = AuthRules.usernameProblem(request.username) { throw .invalid("\(operation): \(problem)") }
            try Self.checkLength(request.password, "password", operation)
            let session = try SessionService.session(of: caller, operation)
            let answer = try accounts.logIn(username: request.username, password: request.password)
            if answer.outcome == .ok { sessions.setUser(answer.username, of: session) }
            log(operation, answer, username: request.username)
            return try encode(answer, for: operation)

        case AuthLogoutRequest.operation:
            _ = try decode(AuthLogoutRequest.self, request, for: operation)
            let session = try SessionService.session(of: caller, operation)
            let user = sessions.user(of: session)
            sessions.setUser(nil, of: session)
            return try encode(AuthAnswer(outcome: .ok, username: user), for: operation)

        case AuthChangePasswordRequest.operation:
            let request = try decode(AuthChangePasswordRequest.self, request, for: operation)
            try Self.checkLength(request.currentPassword, "current_password", operation)
            if let problem = AuthRules.passwordProblem(request.newPassword) { throw .invalid("\(operation): new_password: \(problem)") }
            let session = try SessionService.session(of: caller, operation)
            guard let user = sessions.user(of: session) else {
                return try encode(AuthAnswer(outcome: .refused, message: "Log in first to change your password."), for: operation)
            }
            let answer = try accounts.changePassword(username: user, current: request.currentPassword, new: request.newPassword)
            log(operation, answer, username: user)
            return try encode(answer, for: operation)

        case AuthResetPasswordRequest.operation:
            let request = try decode(AuthResetPasswordRequest.self, request, for: operation)
            if request.token.isEmpty || request.token.count > 256 {
                throw .invalid("\(operation): the token must be 1 to 256 characters; paste the token `den users reset-token <username>` printed")
            }
            let answer = try accounts.resetPassword(token: request.token, new: request.newPassword)
            log(operation, answer, username: answer.username ?? "(token)")
            return try encode(answer, for: operation)

        default:
            throw ServiceFailure(.notFound, "unknown operation '\(operation)'; the auth service answers \(operations.joined(separator: ", "))")
        }
    }

    /// A password over the limit is refused before any hashing, so a huge one costs nothing.
    static func checkLength(_ password: String, _ field: String, _ operation: String) throws(ServiceFailure) {
        if password.isEmpty || password.unicodeScalars.count > AuthRules.passwordLength.upperBound {
            throw .invalid("\(operation): \(field) must be 1 to \(AuthRules.passwordLength.upperBound) characters")
        }
    }

    private func log(_ operation: String, _ answer: AuthAnswer, username: String) {
        let name = AuthRules.usernameProblem(username) == nil ? AuthRules.fold(username) : "(invalid username)"
        logger?.info("\(operation) \(name): \(answer.outcome.rawValue)")
    }
}
