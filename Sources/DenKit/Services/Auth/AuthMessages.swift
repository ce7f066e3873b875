#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The JSON documents of the `auth.*` host services (docs/ABI.md, docs/schema/v1/service/auth.*).
// Both sides use these types: `HostAuthClient` encodes the requests, the host's `AuthService`
// decodes them.
//
//   auth.register         {"username", "password"}                 -> AuthAnswer
//   auth.login            {"username", "password"}                 -> AuthAnswer (sets the session's user)
//   auth.logout           {}                                        -> AuthAnswer (clears it)
//   auth.change_password  {"current_password", "new_password"}     -> AuthAnswer (for the session's user)
//   auth.reset_password   {"token", "new_password"}                -> AuthAnswer
//
// A refusal the user can act on (a wrong password, a locked account, an expired token) is an
// answer with `outcome` "refused" or "locked" and a `message` to show; a malformed request
// (a username or password the rules refuse) is DEN_ERR_INVALID_ARGUMENT.

public struct AuthCredentials: Codable, Sendable, Equatable {
    public static let registerOperation = "auth.register"
    public static let loginOperation = "auth.login"
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

public struct AuthLogoutRequest: Codable, Sendable, Equatable {
    public static let operation = "auth.logout"
    public init() {}

    private enum CodingKeys: CodingKey {}

    /// Asks for an object, so `[]` or `3` is refused like any malformed request.
    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: CodingKeys.self)
    }
}

public struct AuthChangePasswordRequest: Codable, Sendable, Equatable {
    public static let operation = "auth.change_password"
    public var currentPassword: String
    public var newPassword: String

    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password", newPassword = "new_password"
    }
}

public struct AuthResetPasswordRequest: Codable, Sendable, Equatable {
    public static let operation = "auth.reset_password"
    public var token: String
    public var newPassword: String

    public init(token: String, newPassword: String) {
        self.token = token
        self.newPassword = newPassword
    }

    enum CodingKeys: String, CodingKey {
        case token, newPassword = "new_password"
    }
}

/// What every `auth.*` operation answers.
public struct AuthAnswer: Codable, Sendable, Equatable {
    public enum Outcome: String, Codable, Sendable {
        /// Done: registered, logged in, logged out, password changed or reset.
        case ok
        /// Not done; `message` says why and what to do (wrong password, taken username, bad token).
        case refused
        /// Too many failed attempts; `message` says when to try again, `retryAfter` is that moment.
        case locked
    }
    public var outcome: Outcome
    /// The (folded) username the answer is about, when telling it reveals nothing.
    public var username: String?
    /// For the user: why it was refused and what to do. Never contains a password.
    public var message: String?
    /// ISO 8601 time (UTC) when a locked account can log in again.
    public var retryAfter: String?

    public init(outcome: Outcome, username: String? = nil, message: String? = nil, retryAfter: String? = nil) {
        self.outcome = outcome
        self.username = username
        self.message = message
        self.retryAfter = retryAfter
    }

    enum CodingKeys: String, CodingKey {
        case outcome, username, message, retryAfter = "retry_after"
    }
}
