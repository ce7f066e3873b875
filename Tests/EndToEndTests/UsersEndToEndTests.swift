import DenTestSupport
import Foundation
import Testing

/// `den users` as an administrator meets it through the built `den` (real scrypt parameters, so
/// each hash takes about a second in a debug build: only one is made per test).
@Suite("den users, end to end")
struct UsersEndToEndTests {
    static let password = "Sesame-Opens-42"

    @Test("add, list, reset-token, unlock, delete; the password and the token never reach storage.sqlite")
    func lifecycle() throws {
        let den = try DenCommand()
        let added = try den.run(["users", "add", "Alice"], input: Self.password + "\n")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Added user alice."))

        let listed = try den.run(["users", "list"])
        #expect(listed.stdout.contains("alice  created "), "\(listed.stdout)")
        #expect(listed.stdout.contains("scrypt N=2^15 r=8 p=1"))

        let reset = try den.run(["users", "reset-token", "alice"])
        #expect(reset.status == 0, "\(reset.stderr)")
        let token = reset.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.count == 32 && token.allSatisfy(\.isHexDigit), "\(reset.stdout)")
        #expect(reset.stderr.contains("Single use, valid for 30 minutes, until"))

        let file = try Data(contentsOf: den.temp.path("data").appendingPathComponent("storage.sqlite"))
        #expect(file.range(of: Data(Self.password.utf8)) == nil, "storage.sqlite holds the password")
        #expect(file.range(of: Data(token.utf8)) == nil, "storage.sqlite holds the reset token")

        let unlocked = try den.run(["users", "unlock", "alice"])
        #expect(unlocked.stdout.contains("alice was not locked"), "\(unlocked.stdout)")

        let deleted = try den.run(["users", "delete", "alice"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("Deleted user alice."))
        #expect(deleted.stdout.contains("No module kept data for alice"))
        #expect(try den.run(["users", "list"]).stdout.contains("No users yet."))
    }

    @Test("reset-token follows the den.auth reset_token_minutes setting")
    func resetTokenLifetime() throws {
        let den = try DenCommand()
        #expect(try den.run(["users", "add", "alice"], input: Self.password + "\n").status == 0)
        #expect(try den.run(["users", "reset-token", "alice"]).stderr.contains("valid for 30 minutes"))
        #expect(try den.run(["config", "set", "den.auth", "reset_token_minutes", "5"]).status == 0)
        let reset = try den.run(["users", "reset-token", "alice"])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stderr.contains("Single use, valid for 5 minutes, until "), "\(reset.stderr)")
    }

    @Test("mistakes say what to do and exit 1: a short password, a taken name, an unknown user, a bad name")
    func mistakes() throws {
        let den = try DenCommand()
        let short = try den.run(["users", "add", "bob"], input: "short\n")
        #expect(short.status == 1)
        #expect(short.stderr.contains("use at least 8 characters"), "\(short.stderr)")
        #expect(!short.stderr.contains("short\n"))

        #expect(try den.run(["users", "add", "bob"], input: Self.password + "\n").status == 0)
        let taken = try den.run(["users", "add", "Bob"], input: Self.password + "\n")
        #expect(taken.status == 1)
        #expect(taken.stderr.contains("already a user"), "\(taken.stderr)")

        let unknown = try den.run(["users", "reset-token", "nobody"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("den users list"), "\(unknown.stderr)")

        let badName = try den.run(["users", "delete", "no/slashes"])
        #expect(badName.status == 1)
        #expect(badName.stderr.contains("3 to 32 characters"), "\(badName.stderr)")
    }
}
