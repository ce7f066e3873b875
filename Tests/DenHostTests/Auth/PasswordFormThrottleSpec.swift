import CDenABI
@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

extension ThrottleHarness {
    func changePassword(_ current: String, to new: String, in session: UISessionID) throws -> AuthAnswer {
        try call(AuthChangePasswordRequest.operation, AuthChangePasswordRequest(currentPassword: current, newPassword: new), session)
    }

    func resetPassword(_ token: String, to new: String, in session: UISessionID) throws -> AuthAnswer {
        try call(AuthResetPasswordRequest.operation, AuthResetPasswordRequest(token: token, newPassword: new), session)
    }

    private func call<T: Encodable>(_ operation: String, _ request: T, _ session: UISessionID) throws -> AuthAnswer {
        let (status, body) = hub.call(operation, request: try JSONEncoder().encode(request), caller: ServiceCaller(moduleID: "login", session: session))
        try #require(status == DEN_OK, "\(String(decoding: body, as: UTF8.self))")
        return try JSONDecoder().decode(AuthAnswer.self, from: body)
    }

    var auditEvents: [String] { log.lines.compactMap { $0.metadata["event"] } }
}

@Suite("The change-password and reset forms are throttled like logins")
struct PasswordFormThrottleSpec {
    @Test("a logged-in session's guesses at the current password meet the login's delays, even from the owner's device")
    func changePasswordGuesses() throws {
        let harness = try ThrottleHarness()
        // Someone holds alice's logged-in session, on the device her login trusted.
        let laptop = harness.browser("10.0.0.2")
        #expect(try harness.logIn("alice", "correct horse", from: laptop).outcome == .ok)
        let token = try #require(harness.sessions.takeIssuedDevice(of: laptop))
        let session = harness.browser("10.0.0.2", devices: [token])
        harness.sessions.setUser("alice", of: session)
        var outcomes: [AuthAnswer.Outcome] = []
        for attempt in 1...12 {
            outcomes.append(try harness.changePassword("guess \(attempt)", to: "a fine new passphrase", in: session).outcome)
        }
        // 5 on the device's trust, then as a stranger's: the account's fifth failure starts its delay.
        #expect(outcomes.prefix(9).allSatisfy { $0 == .refused }, "\(outcomes)")
        #expect(outcomes.suffix(3).allSatisfy { $0 == .locked }, "\(outcomes)")
        let held = try harness.changePassword("correct horse", to: "a fine new passphrase", in: session)
        #expect(held.outcome == .locked, "the right password waits too while the delay runs")
        #expect(held.message?.contains("try again in") == true, "\(held.message ?? "")")
        #expect(harness.auditEvents.filter { $0 == "password.change.refused" }.count == 9)
        #expect(harness.auditEvents.contains("password.change.throttled"))
        // Once the delay has run, the right password changes it.
        harness.clock.advance(by: 16 * 60)
        #expect(try harness.changePassword("correct horse", to: "a fine new passphrase", in: session).outcome == .ok)
    }

    @Test("a refused new password costs no try")
    func weakPasswordIsFree() throws {
        let harness = try ThrottleHarness()
        let session = harness.browser("10.0.0.5")
        harness.sessions.setUser("alice", of: session)
        for _ in 1...8 {
            let answer = try harness.changePassword("correct horse", to: "password1234", in: session)
            #expect(answer.outcome == .refused)
        }
        #expect(try harness.changePassword("correct horse", to: "a fine new passphrase", in: session).outcome == .ok)
    }

    @Test("wrong reset tokens from one address wait after 20; other addresses do not")
    func resetGuesses() throws {
        let harness = try ThrottleHarness()
        let attacker = harness.browser("203.0.113.50")
        for attempt in 1...20 {
            #expect(try harness.resetPassword("guess-\(attempt)", to: "a fine new passphrase", in: attacker).outcome == .refused, "attempt \(attempt)")
        }
        let (token, _) = try harness.service.accounts.makeResetToken(for: "bob")
        let held = try harness.resetPassword(token, to: "a fine new passphrase", in: attacker)
        #expect(held.outcome == .locked)
        #expect(held.message?.contains("from your network") == true, "\(held.message ?? "")")
        #expect(harness.auditEvents.contains("password.reset.throttled"))
        #expect(try harness.resetPassword(token, to: "a fine new passphrase", in: harness.browser("10.0.0.9")).outcome == .ok)
    }
}
