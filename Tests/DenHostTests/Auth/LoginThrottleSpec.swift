import CDenABI
@testable import DenHost
import DenKit
import DenSupport
import DenTestSupport
import Foundation
import Logging
import Testing

/// The `auth` service as the web front-end drives it: each session says its client's address
/// and device tokens (`SessionStore.setClient`) before its step.
struct ThrottleHarness {
    let clock = TestClock()
    let sessions = SessionStore()
    let log = LogCollector()
    let service: AuthService
    let hub: ServiceHub

    init(level: Logger.Level = .warning) throws {
        let book = AuthTestSupport.book(clock: clock)
        service = AuthService(accounts: book, sessions: sessions, logger: log.logger(label: "den", level: level))
        hub = ServiceHub(services: [service])
        _ = try book.register(username: "alice", password: "correct horse")
        _ = try book.register(username: "bob", password: "battery staple")
    }

    /// A new browser at `address`, with `devices` tokens.
    func browser(_ address: String, devices: [String] = []) -> UISessionID {
        let id = sessions.makeSessionID()
        sessions.setClient(SessionClient(address: address, deviceTokens: devices), of: id)
        return id
    }

    func logIn(_ user: String, _ password: String, from session: UISessionID) throws -> AuthAnswer {
        let request = try JSONEncoder().encode(AuthCredentials(username: user, password: password))
        let (status, body) = hub.call("auth.login", request: request, caller: ServiceCaller(moduleID: "login", session: session))
        try #require(status == DEN_OK, "\(String(decoding: body, as: UTF8.self))")
        return try JSONDecoder().decode(AuthAnswer.self, from: body)
    }
}

@Suite("Login throttling: growing delays per account and per address, device cookies, the audit log")
struct LoginThrottleSpec {
    @Test("strangers wait growing delays after 5 failures; the owner's known device logs in at once")
    func deviceCookieBeatsTheAccountDelay() throws {
        let harness = try ThrottleHarness()
        // The owner logged in from her laptop before: it got a device token.
        let laptop = harness.browser("10.0.0.2")
        #expect(try harness.logIn("alice", "correct horse", from: laptop).outcome == .ok)
        let token = try #require(harness.sessions.takeIssuedDevice(of: laptop))
        #expect(!token.contains("correct horse"))

        // Attackers from many addresses guess at her account.
        for attempt in 1...5 {
            let answer = try harness.logIn("alice", "guess \(attempt)", from: harness.browser("203.0.113.\(attempt)"))
            #expect(answer.outcome == (attempt < 5 ? .refused : .locked), "attempt \(attempt)")
        }
        let held = try harness.logIn("alice", "correct horse", from: harness.browser("198.51.100.7"))
        #expect(held.outcome == .locked, "a stranger waits, even with the right password")
        #expect(held.message?.contains("try again in 30 seconds") == true, "\(held.message ?? "")")
        // The delay grows with each further failure.
        harness.clock.advance(by: 31)
        #expect(try harness.logIn("alice", "guess 6", from: harness.browser("203.0.113.6")).message?.contains("1 minute") == true)

        // Her laptop, with its device cookie, is not held up.
        let again = harness.browser("10.0.0.2", devices: [token])
        #expect(try harness.logIn("alice", "correct horse", from: again).outcome == .ok)
        // A token for another account, or a forged one, does not help.
        let forged = token.replacingOccurrences(of: "alice:", with: "bob:")
        #expect(try harness.logIn("bob", "battery staple", from: harness.browser("203.0.113.9", devices: [forged])).outcome == .ok)
        #expect(try harness.logIn("alice", "correct horse", from: harness.browser("203.0.113.10", devices: [forged])).outcome == .locked)
    }

    @Test("a stolen device cookie is good for only 5 wrong guesses")
    func deviceFailuresAreCounted() throws {
        let harness = try ThrottleHarness()
        let laptop = harness.browser("10.0.0.2")
        _ = try harness.logIn("alice", "correct horse", from: laptop)
        let token = try #require(harness.sessions.takeIssuedDevice(of: laptop))
        for attempt in 1...5 {
            #expect(try harness.logIn("alice", "guess \(attempt)", from: harness.browser("10.0.0.3", devices: [token])).outcome == .refused)
        }
        // Past its free failures the token is a stranger's, and strangers' failures count.
        for attempt in 6...10 { _ = try harness.logIn("alice", "guess \(attempt)", from: harness.browser("10.0.0.3", devices: [token])) }
        #expect(try harness.logIn("alice", "correct horse", from: harness.browser("10.0.0.3", devices: [token])).outcome == .locked)
    }

    @Test("one address guessing across many accounts is slowed down after 20 failures")
    func addressThrottle() throws {
        let harness = try ThrottleHarness()
        let attacker = harness.browser("203.0.113.66")
        for index in 0..<20 {
            #expect(try harness.logIn("user\(index)", "guess", from: attacker).outcome == .refused, "attempt \(index + 1)")
        }
        let held = try harness.logIn("bob", "battery staple", from: attacker)
        #expect(held.outcome == .locked)
        #expect(held.message?.contains("from your network") == true)
        #expect(try harness.logIn("bob", "battery staple", from: harness.browser("10.0.0.9")).outcome == .ok, "other addresses are not held up")
        harness.clock.advance(by: 31)
        #expect(try harness.logIn("bob", "battery staple", from: attacker).outcome == .ok)
    }

    @Test("failed logins, throttles, password changes and resets are audited at the default level, with no password or token")
    func auditLog() throws {
        let harness = try ThrottleHarness(level: .warning)
        let browser = harness.browser("192.0.2.4")
        for _ in 1...5 { _ = try harness.logIn("alice", "wrong horse", from: browser) }
        #expect(try harness.logIn("alice", "correct horse", from: harness.browser("192.0.2.5")).outcome == .locked)
        harness.clock.advance(by: 31)
        let owner = harness.browser("192.0.2.6")
        #expect(try harness.logIn("alice", "correct horse", from: owner).outcome == .ok)
        let change = try JSONEncoder().encode(AuthChangePasswordRequest(currentPassword: "correct horse", newPassword: "stapled horse battery"))
        _ = harness.hub.call("auth.change_password", request: change, caller: ServiceCaller(moduleID: "login", session: owner))
        let (token, _) = try harness.service.accounts.makeResetToken(for: "alice")
        let reset = try JSONEncoder().encode(AuthResetPasswordRequest(token: token, newPassword: "another good phrase"))
        _ = harness.hub.call("auth.reset_password", request: reset, caller: ServiceCaller(moduleID: "login", session: harness.browser("192.0.2.7")))

        let audit = harness.log.lines.filter { $0.metadata["event"] != nil }
        let events = audit.map { "\($0.metadata["event"]!) \($0.metadata["account"]!) \($0.metadata["client"]!)" }
        #expect(events.filter { $0 == "login.failed alice 192.0.2.4" }.count == 4, "\(events)")
        #expect(events.contains("login.throttled alice 192.0.2.4"))
        #expect(events.contains("login.throttled alice 192.0.2.5"))
        #expect(events.contains("login.ok alice 192.0.2.6"))
        #expect(events.contains("password.changed alice 192.0.2.6"))
        #expect(events.contains("password.reset alice 192.0.2.7"))
        #expect(audit.allSatisfy { $0.level == .notice })
        let everything = harness.log.lines.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        for secret in ["wrong horse", "correct horse", "stapled horse battery", "another good phrase", token] {
            #expect(!everything.contains(secret), "the log holds a secret")
        }
    }
}
