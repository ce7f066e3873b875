import DenLibraryClients
import DenLibraryContracts
import DenKit
import DenSupport
import FoundationEssentials
import Synchronization

/// The host's user accounts: register, log in, change and reset passwords, and the
/// administrator's `den users` commands. Shared by `AuthService` and the command line.
///
/// Rules kept here (docs/ABI.md "Accounts"):
/// - only scrypt hashes are stored (`PasswordHasher`); a password never reaches storage, a log
///   line or a message;
/// - a login for an unknown user hashes against a dummy, so it costs as long as a real one;
/// - after `maxFailedAttempts` failures in a row, each further attempt from a device not
///   trusted for the account waits a growing delay (`LoginDelay`); a trusted device (one that
///   logged in to the account before, `DeviceTokens`) is never held up by it;
/// - a hash made with weaker parameters than configured is redone at the next good login;
/// - every change of more than one key is one storage transaction.
public final class AccountBook: Sendable {
    package let store: AccountStore
    /// Serialises read-modify-write of records in this process; hashing happens outside it.
    private let lock = Lock()
    private let resolved: Mutex<AuthSettings?> = Mutex(nil)
    private let resolve: @Sendable () -> AuthSettings

    /// The settings in force. `resolve` runs on first use, so a command that never touches
    /// accounts never opens storage to read `den config` values.
    package var settings: AuthSettings {
        resolved.withLock { current in
            if let current { return current }
            let settings = resolve()
            current = settings
            return settings
        }
    }

    public convenience init(engine: any StorageEngine, settings: AuthSettings = .default) {
        self.init(engine: engine) { settings }
    }

    package init(engine: any StorageEngine, resolveSettings: @escaping @Sendable () -> AuthSettings) {
        store = AccountStore(engine: engine)
        resolve = resolveSettings
    }

    // MARK: Users

    public func register(username: String, password: String) throws(ServiceFailure) -> AuthAnswer {
        let name = try Self.checkedUsername(username)
        if let problem = AuthRules.passwordProblem(password) { throw .invalid("auth.register: \(problem)") }
        if let problem = PasswordPolicy.problem(password, username: name) { return AuthAnswer(outcome: .refused, message: problem) }
        // Hash first, so a taken name costs as long as a free one.
        let hash = try PasswordHasher.hash(password, parameters: settings.hashParameters)
        return try locked { () throws(ServiceFailure) -> AuthAnswer in
            guard try store.user(name) == nil else {
                return AuthAnswer(outcome: .refused, message: "That username is not available; choose another.")
            }
            try store.apply([try AccountStore.set(UserRecord(username: name, hash: hash, created: settings.now(), account: UserRecord.newAccountID()))])
            return AuthAnswer(outcome: .ok, username: name)
        }
    }

    /// Checks a password; `.ok` means the caller may log the session in as `username`.
    /// `trusted`: the attempt comes from a device that logged in to this account before; it
    /// neither waits for the account's delay nor adds to its failures (its own failures are
    /// counted per device by `LoginThrottle`).
    public func logIn(username: String, password: String, trusted: Bool = false) throws(ServiceFailure) -> AuthAnswer {
        let refused = AuthAnswer(outcome: .refused, message: "Wrong username or password.")
        guard AuthRules.usernameProblem(username) == nil, password.unicodeScalars.count <= AuthRules.passwordLength.upperBound else {
            _ = try PasswordHasher.verify(String(String.UnicodeScalarView(password.unicodeScalars.prefix(AuthRules.passwordLength.upperBound))), against: PasswordHasher.dummy(settings.hashParameters))
            return refused
        }
        let name = AuthRules.fold(username)
        guard let record = try store.user(name) else {
            _ = try PasswordHasher.verify(password, against: PasswordHasher.dummy(settings.hashParameters))
            return refused
        }
        // Verified even when locked, so a locked account answers as slowly as any other.
        let matches = try PasswordHasher.verify(password, against: record.hash)
        let rehash = matches && record.hash.parameters.isWeaker(than: settings.hashParameters)
            ? try PasswordHasher.hash(password, parameters: settings.hashParameters) : nil
        return try locked { () throws(ServiceFailure) -> AuthAnswer in
            guard var fresh = try store.user(name) else { return refused }
            let now = settings.now()
            if !trusted, let until = fresh.lockedUntil, until > now {
                return AuthAnswer(outcome: .locked, message: LockoutText.message(until: until, now: now), retryAfter: LockoutText.iso(until))
            }
            guard matches else {
                if trusted { return refused }
                fresh.failedAttempts += 1
                fresh.lockedUntil = nil
                var answer = refused
                if let delay = LoginDelay.after(failures: fresh.failedAttempts, free: settings.maxFailedAttempts, longest: settings.lockoutDuration) {
                    let until = now.addingTimeInterval(delay)
                    fresh.lockedUntil = until
                    answer = AuthAnswer(outcome: .locked, message: LockoutText.message(until: until, now: now), retryAfter: LockoutText.iso(until))
                }
                try store.apply([try AccountStore.set(fresh)])
                return answer
            }
            // A trusted device's success leaves strangers' delay as it was.
            if !trusted {
                fresh.lockedUntil = nil
                fresh.failedAttempts = 0
            }
            if let rehash, fresh.hash == record.hash { fresh.hash = rehash }
            if fresh != record || rehash != nil { try store.apply([try AccountStore.set(fresh)]) }
            return AuthAnswer(outcome: .ok, username: name)
        }
    }

    package func changePassword(username: String, current: String, new: String, trusted: Bool = false) throws(ServiceFailure) -> AuthAnswer {
        if let problem = AuthRules.passwordProblem(new) { throw .invalid("auth.change_password: \(problem)") }
        if let problem = PasswordPolicy.problem(new, username: username) { return AuthAnswer(outcome: .refused, message: problem) }
        let check = try logIn(username: username, password: current, trusted: trusted)
        guard check.outcome == .ok else {
            return check.outcome == .locked ? check
                : AuthAnswer(outcome: .refused, message: "The current password is wrong; the password was not changed.")
        }
        let hash = try PasswordHasher.hash(new, parameters: settings.hashParameters)
        return try locked { () throws(ServiceFailure) -> AuthAnswer in
            guard var record = try store.user(AuthRules.fold(username)) else {
                return AuthAnswer(outcome: .refused, message: "This account no longer exists.")
            }
            record.hash = hash
            record.passwordChanges = (record.passwordChanges ?? 0) + 1 // every other session's login ends
            try store.apply([try AccountStore.set(record)])
            return AuthAnswer(outcome: .ok, username: record.username)
        }
    }

    package func resetPassword(token: String, new: String) throws(ServiceFailure) -> AuthAnswer {
        if let problem = AuthRules.passwordProblem(new) { throw .invalid("auth.reset_password: \(problem)") }
        let tokenHash = try Self.tokenHash(token)
        let hash = try PasswordHasher.hash(new, parameters: settings.hashParameters)
        let unknown = AuthAnswer(outcome: .refused, message: "This reset token is not valid (mistyped, already used, or replaced by a newer one). Ask an administrator for a new one: den users reset-token <username>.")
        return try locked { () throws(ServiceFailure) -> AuthAnswer in
            guard let reset = try store.reset(tokenHash) else { return unknown }
            guard reset.expires > settings.now() else {
                try store.apply([.delete(key: AccountStore.resetKey(tokenHash))])
                return AuthAnswer(outcome: .refused, message: "This reset token has expired. Ask an administrator for a new one: den users reset-token <username>.")
            }
            guard var record = try store.user(reset.username), record.resetTokenHash == tokenHash else {
                try store.apply([.delete(key: AccountStore.resetKey(tokenHash))])
                return unknown
            }
            // The token stays usable: the user may try again with a better password.
            if let problem = PasswordPolicy.problem(new, username: record.username) {
                return AuthAnswer(outcome: .refused, username: record.username, message: problem)
            }
            record.hash = hash
            record.passwordChanges = (record.passwordChanges ?? 0) + 1 // every session's login ends
            record.resetTokenHash = nil
            record.failedAttempts = 0
            record.lockedUntil = nil
            // Single use: the token goes in the same transaction as the new hash.
            try store.apply([try AccountStore.set(record), .delete(key: AccountStore.resetKey(tokenHash))])
            return AuthAnswer(outcome: .ok, username: record.username)
        }
    }

    /// The identity of the live account `username`, nil when there is none: what a UI session
    /// checks its logged-in user against (`SessionStore`).
    package func accountIdentity(_ username: String) throws(ServiceFailure) -> String? {
        try store.identity(username)
    }

    // MARK: Administration (den users)

    /// A new single-use reset token for `username` (32 hex digits, 128 random bits), replacing
    /// any earlier one. Only its SHA-256 is stored.
    package func makeResetToken(for username: String) throws(ServiceFailure) -> (token: String, expires: Date) {
        let name = try Self.checkedUsername(username)
        var generator = SystemRandomNumberGenerator()
        let token = NumberText.hex((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let tokenHash = try Self.tokenHash(token)
        let expires = settings.now().addingTimeInterval(settings.resetTokenLifetime)
        try locked { () throws(ServiceFailure) in
            guard var record = try store.user(name) else { throw Self.noSuchUser(name) }
            var operations: [StorageOperation] = []
            if let old = record.resetTokenHash { operations.append(.delete(key: AccountStore.resetKey(old))) }
            record.resetTokenHash = tokenHash
            operations += [try AccountStore.set(record), try AccountStore.set(ResetRecord(username: name, expires: expires), tokenHash: tokenHash)]
            try store.apply(operations)
        }
        return (token, expires)
    }

    /// Every user, sorted by name.
    package func users() throws(ServiceFailure) -> [AccountSummary] {
        let now = settings.now()
        return try store.users().map { record in
            AccountSummary(username: record.username, created: record.created,
                           lockedUntil: record.lockedUntil.flatMap { $0 > now ? $0 : nil },
                           failedAttempts: record.failedAttempts, parameters: record.hash.parameters)
        }
    }

    /// Clears a lockout and the failure count; false when the account was not locked.
    package func unlock(_ username: String) throws(ServiceFailure) -> Bool {
        let name = try Self.checkedUsername(username)
        return try locked { () throws(ServiceFailure) -> Bool in
            guard var record = try store.user(name) else { throw Self.noSuchUser(name) }
            let wasLocked = record.lockedUntil.map { $0 > settings.now() } ?? false
            record.lockedUntil = nil
            record.failedAttempts = 0
            try store.apply([try AccountStore.set(record)])
            return wasLocked
        }
    }

    /// Deletes the user and, in one transaction, every module's keys under `user/<username>/`
    /// (the per-user convention of docs/ABI.md). Returns how many keys each module lost.
    package func delete(_ username: String) throws(ServiceFailure) -> [String: Int] {
        let name = try Self.checkedUsername(username)
        return try locked { () throws(ServiceFailure) -> [String: Int] in
            guard let record = try store.user(name) else { throw Self.noSuchUser(name) }
            let prefix = UserDataConvention.prefix(for: name)
            var operations: [NamespacedOperation] = []
            var removed: [String: Int] = [:]
            for namespace in try store.engine.namespaces() where namespace != AccountStore.namespace {
                let keys = try store.engine.list(namespace: namespace, prefix: prefix).map(\.key)
                if !keys.isEmpty { removed[namespace] = keys.count }
                operations += keys.map { NamespacedOperation(namespace: namespace, operation: .delete(key: $0)) }
            }
            operations.append(NamespacedOperation(namespace: AccountStore.namespace, operation: .delete(key: AccountStore.userKey(name))))
            if let token = record.resetTokenHash {
                operations.append(NamespacedOperation(namespace: AccountStore.namespace, operation: .delete(key: AccountStore.resetKey(token))))
            }
            store.willWrite()
            try store.engine.apply(across: operations)
            return removed
        }
    }

    // MARK: Helpers

    package static func checkedUsername(_ username: String) throws(ServiceFailure) -> String {
        if let problem = AuthRules.usernameProblem(username) { throw .invalid("auth: \(problem)") }
        return AuthRules.fold(username)
    }

    package static func noSuchUser(_ name: String) -> ServiceFailure {
        ServiceFailure(.notFound, "there is no user '\(name)'; `den users list` shows the users")
    }

    package static func tokenHash(_ token: String) throws(ServiceFailure) -> String {
        let normalised = token.trimmingWhitespace().lowercased()
        return NumberText.hex(try CryptoLibrary.shared.sha256(Array(normalised.utf8)))
    }

    private func locked<T>(_ body: () throws(ServiceFailure) -> T) throws(ServiceFailure) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// One line of `den users list`.
package struct AccountSummary: Sendable, Equatable {
    package var username: String
    package var created: Date
    /// Set while the account is locked.
    package var lockedUntil: Date?
    package var failedAttempts: Int
    package var parameters: PasswordHashParameters
}

/// The host hook for a user's data in modules: a module keeps what belongs to one user under
/// storage keys starting `user/<username>/`, and `den users delete` removes exactly those keys
/// from every module's namespace (docs/ABI.md "Per-user data").
package enum UserDataConvention {
    package static func prefix(for username: String) -> String { "user/\(username)/" }
}
