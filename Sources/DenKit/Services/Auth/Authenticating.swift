#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The host's `auth` service as an interactor sees it. Interactors depend on this protocol; their
/// tests use a mock. Refusals come back as `AuthAnswer`s to show; thrown errors are
/// `HostServiceError`s (a request the rules refuse, no UI session, storage trouble).
public protocol Authenticating: Sendable {
    func register(username: String, password: String) throws -> AuthAnswer
    /// Logs the current UI session in as `username` when the password is right.
    func logIn(username: String, password: String) throws -> AuthAnswer
    /// Clears the current UI session's user.
    func logOut() throws -> AuthAnswer
    /// Changes the password of the current UI session's user.
    func changePassword(current: String, new: String) throws -> AuthAnswer
    /// Sets a new password with a token from `den users reset-token <username>`.
    func resetPassword(token: String, new: String) throws -> AuthAnswer
}

/// `Authenticating` over the host's `auth.*` services.
public struct HostAuthClient: Authenticating {
    private let host: HostServices

    public init(_ host: HostServices) {
        self.host = host
    }

    public func register(username: String, password: String) throws -> AuthAnswer {
        try host.call(AuthCredentials.registerOperation, AuthCredentials(username: username, password: password), as: AuthAnswer.self)
    }

    public func logIn(username: String, password: String) throws -> AuthAnswer {
        try host.call(AuthCredentials.loginOperation, AuthCredentials(username: username, password: password), as: AuthAnswer.self)
    }

    public func logOut() throws -> AuthAnswer {
        try host.call(AuthLogoutRequest.operation, AuthLogoutRequest(), as: AuthAnswer.self)
    }

    public func changePassword(current: String, new: String) throws -> AuthAnswer {
        try host.call(AuthChangePasswordRequest.operation,
                      AuthChangePasswordRequest(currentPassword: current, newPassword: new), as: AuthAnswer.self)
    }

    public func resetPassword(token: String, new: String) throws -> AuthAnswer {
        try host.call(AuthResetPasswordRequest.operation, AuthResetPasswordRequest(token: token, newPassword: new),
                      as: AuthAnswer.self)
    }
}
