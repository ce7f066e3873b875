import DenAccounts
@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

@Suite("Accounts: registration, lockout, reset tokens, administration")
struct AccountBookSpec {
    @Test("usernames are folded to lower case and checked against the documented rule")
    func usernames() throws {
        let book = AuthTestSupport.book()
        #expect(try book.register(username: "Alice.B", password: "correct horse").username == "alice.b")
        #expect(try book.logIn(username: "ALICE.B", password: "correct horse").outcome == .ok)
        for bad in ["ab", "has space", "ünï", String(repeating: "a", count: 33), "a/b"] {
            #expect(throws: ServiceFailure.self) { try book.register(username: bad, password: "correct horse") }
        }
    }

    @Test("passwords are 8 to 1024 characters")
    func passwordLength() throws {
        let book = AuthTestSupport.book()
        let short = #expect(throws: ServiceFailure.self) { try book.register(username: "alice", password: "1234567") }
        #expect(short?.message.contains("at least 8") == true)
        #expect(short?.message.contains("1234567") == false)
        #expect(throws: ServiceFailure.self) { try book.register(username: "alice", password: String(repeating: "x", count: 1025)) }
        #expect(try book.register(username: "alice", password: String(repeating: "x", count: 1024)).outcome == .ok)
        let spaces = #expect(throws: ServiceFailure.self) { try book.register(username: "bob", password: "          ") }
        #expect(spaces?.message.contains("only spaces") == true)
        #expect(try book.register(username: "bob", password: "  two words  ").outcome == .ok, "spaces among other characters are fine")
    }

    @Test("a taken username is refused without saying more than 'not available'")
    func duplicate() throws {
        let book = AuthTestSupport.book()
        _ = try book.register(username: "alice", password: "correct horse")
        let again = try book.register(username: "Alice", password: "another one")
        #expect(again.outcome == .refused)
        #expect(again.username == nil)
        #expect(again.message == "That username is not available; choose another.")
        #expect(try book.logIn(username: "alice", password: "correct horse").outcome == .ok)
    }

    @Test("a wrong password and an unknown user get the same answer")
    func sameRefusal() throws {
        let book = AuthTestSupport.book()
        _ = try book.register(username: "alice", password: "correct horse")
        #expect(try book.logIn(username: "alice", password: "wrong password") == book.logIn(username: "nobody", password: "wrong password"))
    }

    @Test("after five failures each attempt waits a growing delay (30 s, doubling, at most 15 minutes); the message says how long")
    func growingDelay() throws {
        let clock = TestClock()
        let book = AuthTestSupport.book(clock: clock)
        _ = try book.register(username: "alice", password: "correct horse")
        for _ in 1...4 {
            #expect(try book.logIn(username: "alice", password: "wrong password").outcome == .refused)
        }
        let fifth = try book.logIn(username: "alice", password: "wrong password")
        #expect(fifth.outcome == .locked)
        #expect(fifth.message?.contains("try again in 30 seconds") == true, "\(fifth.message ?? "")")
        #expect(fifth.retryAfter == LockoutText.iso(clock.now.addingTimeInterval(30)))
        #expect(try book.logIn(username: "alice", password: "correct horse").outcome == .locked, "the right password waits too")
        var waits: [TimeInterval] = []
        for _ in 0..<7 {
            clock.advance(by: 1000)
            let answer = try book.logIn(username: "alice", password: "wrong password")
            let until = try #require(answer.retryAfter.flatMap { ISO8601DateFormatter().date(from: $0) })
            waits.append(until.timeIntervalSince(clock.now).rounded())
        }
        #expect(waits == [60, 120, 240, 480, 900, 900, 900])
        clock.advance(by: 901)
        #expect(try book.logIn(username: "alice", password: "correct horse").outcome == .ok)
        #expect(try book.users().first?.lockedUntil == nil)
        #expect(try book.users().first?.failedAttempts == 0)
    }

    @Test("a trusted device neither waits for the account's delay nor adds to its failures")
    func trustedDevice() throws {
        let book = AuthTestSupport.book()
        _ = try book.register(username: "alice", password: "correct horse")
        for _ in 1...5 { _ = try book.logIn(username: "alice", password: "wrong password") }
        #expect(try book.logIn(username: "alice", password: "wrong password", trusted: true).outcome == .refused)
        #expect(try book.users().first?.failedAttempts == 5)
        #expect(try book.logIn(username: "alice", password: "correct horse", trusted: true).outcome == .ok)
        #expect(try book.logIn(username: "alice", password: "correct horse").outcome == .locked, "strangers still wait")
    }

    @Test("a good login resets the failure count")
    func successResets() throws {
        let book = AuthTestSupport.book()
        _ = try book.register(username: "alice", password: "correct horse")
        for _ in 1...4 { _ = try book.logIn(username: "alice", password: "wrong password") }
        #expect(try book.logIn(username: "alice", password: "correct horse").outcome == .ok)
        for _ in 1...4 {
            #expect(try book.logIn(username: "alice", password: "wrong password").outcome == .refused)
        }
    }

    @Test("the lockout settings come from the host configuration")
    func configuredLockout() throws {
        let clock = TestClock()
        var settings = AuthTestSupport.settings(clock)
        settings.maxFailedAttempts = 2
        settings.lockoutDuration = 60
        let book = AccountBook(engine: InMemoryStorageEngine(), settings: settings)
        _ = try book.register(username: "alice", password: "correct horse")
        _ = try book.logIn(username: "alice", password: "wrong password")
        let locked = try book.logIn(username: "alice", password: "wrong password")
        #expect(locked.outcome == .locked)
        #expect(locked.message?.contains("30 seconds") == true)
        _ = try book.logIn(username: "alice", password: "wrong password")
        clock.advance(by: 31)
        let longest = try book.logIn(username: "alice", password: "wrong password")
        #expect(longest.message?.contains("1 minute") == true, "the delay never passes lockout_minutes")
        clock.advance(by: 61)
        #expect(try book.logIn(username: "alice", password: "correct horse").outcome == .ok)
    }

    @Test("unlock clears a lockout")
    func unlock() throws {
        let book = AuthTestSupport.book()
        _ = try book.register(username: "alice", password: "correct horse")
        for _ in 1...5 { _ = try book.logIn(username: "alice", password: "wrong password") }
        #expect(try book.unlock("alice"))
        #expect(try book.logIn(username: "alice", password: "correct horse").outcome == .ok)
        #expect(try !book.unlock("alice"))
        #expect(throws: ServiceFailure.self) { try book.unlock("nobody") }
    }

    @Test("a reset token works once, and only its hash is stored")
    func resetSingleUse() throws {
        let engine = InMemoryStorageEngine()
        let book = AuthTestSupport.book(engine)
        _ = try book.register(username: "alice", password: "correct horse")
        for _ in 1...5 { _ = try book.logIn(username: "alice", password: "wrong password") }
        let (token, _) = try book.makeResetToken(for: "alice")
        #expect(token.count == 32)
        let stored = try engine.list(namespace: AccountStore.namespace, prefix: "").map { $0.key + $0.value }.joined()
        #expect(!stored.contains(token))
        #expect(try book.resetPassword(token: token, new: "battery staple").outcome == .ok)
        #expect(try book.resetPassword(token: token, new: "other password").outcome == .refused)
        // The reset also lifts the lockout.
        #expect(try book.logIn(username: "alice", password: "battery staple").outcome == .ok)
        #expect(try book.logIn(username: "alice", password: "correct horse").outcome == .refused)
    }

    @Test("a reset token expires after 30 minutes; a newer token replaces an older one")
    func resetExpiry() throws {
        let clock = TestClock()
        let book = AuthTestSupport.book(clock: clock)
        _ = try book.register(username: "alice", password: "correct horse")
        let (old, expires) = try book.makeResetToken(for: "alice")
        #expect(expires == clock.now.addingTimeInterval(30 * 60))
        let (new, _) = try book.makeResetToken(for: "alice")
        #expect(try book.resetPassword(token: old, new: "battery staple").outcome == .refused)
        clock.advance(by: 30 * 60 + 1)
        let expired = try book.resetPassword(token: new, new: "battery staple")
        #expect(expired.outcome == .refused)
        #expect(expired.message?.contains("expired") == true)
        #expect(try book.logIn(username: "alice", password: "correct horse").outcome == .ok)
        #expect(throws: ServiceFailure.self) { try book.makeResetToken(for: "nobody") }
    }

    @Test("deleting a user removes every module's user/<name>/ keys and nothing else, in one step", arguments: StorageEngineKind.allCases)
    func delete(kind: StorageEngineKind) throws {
        let (engine, folder) = try kind.make()
        defer { folder.map(ServiceTestSupport.remove) }
        let book = AuthTestSupport.book(engine)
        _ = try book.register(username: "alice", password: "correct horse")
        _ = try book.register(username: "alicea", password: "correct horse")
        try engine.apply(namespace: "jogs", operations: [.set(key: "user/alice/1", value: "a"), .set(key: "user/alice/2", value: "b"),
                                                        .set(key: "user/alicea/1", value: "c"), .set(key: "counter", value: "2")])
        try engine.set(namespace: "notes", key: "user/alice/n", value: "x")
        let removed = try book.delete("Alice")
        #expect(removed == ["jogs": 2, "notes": 1])
        #expect(try engine.list(namespace: "jogs", prefix: "").map(\.key) == ["counter", "user/alicea/1"])
        #expect(try book.users().map(\.username) == ["alicea"])
        #expect(try book.logIn(username: "alice", password: "correct horse").outcome == .refused)
        #expect(throws: ServiceFailure.self) { try book.delete("alice") }
    }
}
