import DenAccounts
import DenLibraryContracts
import DenKit
import FoundationEssentials
import Logging

/// Host service `auth.*` (see `AuthCredentials` ... `AuthAnswer` in DenKit for the JSON): the
/// `AccountBook` behind JSON, plus the calling UI session's user (`SessionStore`).
///
/// Log lines name the user and the outcome, never a password; requests are never logged. The
/// audit lines (`audit`) are written at `notice`, whatever the log level, so they are on by default.
package struct AuthService: HostService {
    package let accounts: AccountBook
    package let sessions: SessionStore
    let logger: Logger?
    let auditLogger: Logger?
    /// Hears of each audit line (metrics count them by event).
    let events: (any HostEventObserver)?
    package let throttle: LoginThrottle
    package let devices: DeviceTokens

    package var operations: [String] {
        [AuthCredentials.registerOperation, AuthCredentials.loginOperation, AuthLogoutRequest.operation,
         AuthChangePasswordRequest.operation, AuthResetPasswordRequest.operation]
    }

    package init(accounts: AccountBook, sessions: SessionStore, logger: Logger? = nil, events: (any HostEventObserver)? = nil) {
        self.events = events
        self.accounts = accounts
        self.sessions = sessions
        self.logger = logger
        var audit = logger
        if let level = audit?.logLevel, level > .notice { audit?.logLevel = .notice }
        auditLogger = audit
        throttle = LoginThrottle { [accounts] in accounts.settings }
        devices = DeviceTokens(store: accounts.store)
    }

    package func handle(_ operation: String, request: Data, caller: ServiceCaller) throws(ServiceFailure) -> Data {
        switch operation {
        case AuthCredentials.registerOperation:
            let request = try decode(AuthCredentials.self, request, for: operation)
            let answer = try accounts.register(username: request.username, password: request.password)
            log(operation, answer, username: request.username)
            audit(answer.outcome == .ok ? "account.registered" : "account.refused", account: request.username, caller: caller)
            return try encode(answer, for: operation)

        case AuthCredentials.loginOperation:
            let request = try decode(AuthCredentials.self, request, for: operation)
            // The rules are public, so refusing a malformed name reveals nothing about accounts.
            if let problem = AuthRules.usernameProblem(request.username) { throw .invalid("\(operation): \(problem)") }
            try Self.checkLength(request.password, "password", operation)
            let session = try SessionService.session(of: caller, operation)
            let name = AuthRules.fold(request.username)
            let client = sessions.client(of: session) ?? SessionClient(address: "local")
            let device = trustedDevice(client, for: name)
            let now = accounts.settings.now()
            // A device the account trusts is not held up by its network's failures either.
            if device == nil, let until = throttle.addressWait(client.address, now: now) {
                audit("login.throttled", account: name, caller: caller, ["by": "address"])
                return try encode(AuthAnswer(outcome: .locked, message: LockoutText.message(until: until, now: now, fromAddress: true),
                                             retryAfter: LockoutText.iso(until)), for: operation)
            }
            let answer = try accounts.logIn(username: request.username, password: request.password, trusted: device != nil)
            switch answer.outcome {
            case .ok:
                throttle.succeeded(device: device)
                sessions.setUser(answer.username, of: session)
                if let token = try? devices.issue(for: name) { sessions.setIssuedDevice(token, of: session) }
                audit("login.ok", account: name, caller: caller, device == nil ? [:] : ["device": "trusted"])
            case .refused:
                throttle.failed(address: client.address, device: device, now: now)
                audit("login.failed", account: name, caller: caller, device == nil ? [:] : ["device": "trusted"])
            case .locked:
                throttle.failed(address: client.address, device: device, now: now)
                audit("login.throttled", account: name, caller: caller, ["by": "account", "retry_after": .string(answer.retryAfter ?? "")])
            }
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
            // A weak new password is refused before the current one is checked, and costs no try.
            if let problem = PasswordPolicy.problem(request.newPassword, username: user) {
                return try encode(AuthAnswer(outcome: .refused, message: problem), for: operation)
            }
            // The current password is a password guess like a login's, throttled the same way:
            // whoever holds a logged-in session must not get unlimited guesses at it.
            let client = sessions.client(of: session) ?? SessionClient(address: "local")
            let device = trustedDevice(client, for: user)
            let now = accounts.settings.now()
            if device == nil, let until = throttle.addressWait(client.address, now: now) {
                audit("password.change.throttled", account: user, caller: caller, ["by": "address"])
                return try encode(AuthAnswer(outcome: .locked, message: LockoutText.message(until: until, now: now, fromAddress: true),
                                             retryAfter: LockoutText.iso(until)), for: operation)
            }
            var answer = try accounts.changePassword(username: user, current: request.currentPassword, new: request.newPassword,
                                                     trusted: device != nil)
            switch answer.outcome {
            case .ok: throttle.succeeded(device: device)
            case .refused, .locked: throttle.failed(address: client.address, device: device, now: now)
            }
            // The account's identity changed with its password: this session logs in under the new
            // one, and every other session, on any host, is logged out at its next request.
            if answer.outcome == .ok { sessions.setUser(user, of: session, loginChange: false) }
            let ended = answer.outcome == .ok ? sessions.logOutOthers(user, keeping: session) : 0
            if answer.outcome == .ok { answer.message = Self.othersLoggedOut(ended) }
            log(operation, answer, username: user)
            audit(answer.outcome == .ok ? "password.changed" : answer.outcome == .locked ? "password.change.throttled" : "password.change.refused",
                  account: user, caller: caller, answer.outcome == .ok ? ["sessions_ended": "\(ended)"]
                    : answer.outcome == .locked ? ["by": "account", "retry_after": .string(answer.retryAfter ?? "")] : [:])
            return try encode(answer, for: operation)

        case AuthResetPasswordRequest.operation:
            let request = try decode(AuthResetPasswordRequest.self, request, for: operation)
            if request.token.isEmpty || request.token.count > 256 {
                throw .invalid("\(operation): the token must be 1 to 256 characters; paste the token `den users reset-token <username>` printed")
            }
            // A reset token is a secret guessed like a password: wrong ones are throttled per address.
            let client = caller.session.flatMap { sessions.client(of: $0) } ?? SessionClient(address: "local")
            let now = accounts.settings.now()
            if let until = throttle.addressWait(client.address, now: now) {
                audit("password.reset.throttled", account: "(token)", caller: caller, ["by": "address"])
                return try encode(AuthAnswer(outcome: .locked, message: LockoutText.message(until: until, now: now, fromAddress: true),
                                             retryAfter: LockoutText.iso(until)), for: operation)
            }
            var answer = try accounts.resetPassword(token: request.token, new: request.newPassword)
            // A refusal that names no account is a wrong token (a weak new password names it).
            if answer.outcome == .refused, answer.username == nil { throttle.failed(address: client.address, device: nil, now: now) }
            var ended = 0
            if answer.outcome == .ok, let user = answer.username {
                ended = sessions.logOutOthers(user, keeping: caller.session)
                answer.message = Self.othersLoggedOut(ended)
            }
            log(operation, answer, username: answer.username ?? "(token)")
            audit(answer.outcome == .ok ? "password.reset" : "password.reset.refused", account: answer.username ?? "(token)",
                  caller: caller, answer.outcome == .ok ? ["sessions_ended": "\(ended)"] : [:])
            return try encode(answer, for: operation)

        default:
            throw ServiceFailure(.notFound, "unknown operation '\(operation)'; the auth service answers \(operations.joined(separator: ", "))")
        }
    }

    /// The id of a device token the client brought for `account` that is this host's and still
    /// trusted; nil for a stranger.
    private func trustedDevice(_ client: SessionClient?, for account: String) -> String? {
        for token in client?.deviceTokens ?? [] {
            if let device = devices.verify(token), device.user == account, throttle.deviceTrusted(device.id) { return device.id }
        }
        return nil
    }

    /// One audit line: the event, the account, the client's address (the time is the log
    /// line's). Never a password or a token.
    private func audit(_ event: String, account: String, caller: ServiceCaller, _ extra: Logger.Metadata = [:]) {
        let name = AuthRules.usernameProblem(account) == nil ? AuthRules.fold(account) : "(invalid username)"
        let address = caller.session.flatMap { sessions.client(of: $0)?.address } ?? "local"
        events?.hostEvent(.audit(event))
        auditLogger?.notice("audit \(event) \(name) from \(address)",
                            metadata: ["event": .string(event), "account": .string(name), "client": .string(address)].merging(extra) { $1 })
    }

    /// What an `ok` change or reset says about the user's other sessions, which it logged out
    /// (whoever had the old password may be behind one of them).
    static func othersLoggedOut(_ count: Int) -> String? {
        switch count {
        case 0: nil
        case 1: "1 other session was logged out."
        default: "\(count) other sessions were logged out."
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
