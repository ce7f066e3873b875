import FoundationEssentials

/// The host's settings for the `auth` service (HostConfiguration.auth). docs/ABI.md lists them.
public struct AuthSettings: Sendable {
    /// Failed logins in a row before each further attempt from an untrusted device waits (`LoginDelay`).
    public var maxFailedAttempts = 5
    /// The longest of those waits.
    package var lockoutDuration: TimeInterval = 15 * 60
    /// How long a token from `den users reset-token` can be used.
    package var resetTokenLifetime: TimeInterval = 30 * 60
    /// scrypt parameters for new hashes; weaker stored hashes are redone at login.
    public var hashParameters: PasswordHashParameters = .standard
    /// The time; tests inject a clock to check lockout and token expiry.
    package var now: @Sendable () -> Date = { Date() }

    public init() {}

    public static let `default` = AuthSettings()

    /// Why these settings cannot be used, or nil. Checked when the runtime starts, like module settings.
    package var problem: String? {
        if !(1...100).contains(maxFailedAttempts) {
            return "auth: maxFailedAttempts must be 1...100, not \(maxFailedAttempts)"
        }
        if !(1...(7 * 86_400)).contains(lockoutDuration) {
            return "auth: lockoutDuration must be 1 second to 7 days, not \(lockoutDuration) s"
        }
        if !(60...(7 * 86_400)).contains(resetTokenLifetime) {
            return "auth: resetTokenLifetime must be 1 minute to 7 days, not \(resetTokenLifetime) s"
        }
        return hashParameters.problem.map { "auth: \($0)" }
    }
}
