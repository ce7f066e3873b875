import DenTestSupport
import Foundation
import Testing

/// The Login and Jogs modules as a person meets them: the built `den`, the bundled plugins, real
/// scrypt, SQLite in a private data folder, commands piped into `den run`. Each `den run` is a
/// new process, so a second run is a restart.
@Suite("Login and Jogs through the terminal, end to end")
struct JogsWalkthroughEndToEndTests {
    static let alicePassword = "Sesame-Opens-42"
    static let bobPassword = "Bob-Runs-Daily-7"

    /// Lines that log `user` in from the login form (the password read as a hidden entry).
    static func logIn(_ user: String, _ password: String) -> String {
        "set username \(user)\nset password\n\(password)\npress log in\n"
    }

    static func addJog(date: String, km: String, duration: String) -> String {
        "go jogs/new\nset date \(date)\nset distance \(km)\nset duration \(duration)\npress save\n"
    }

    /// The part of a transcript after the last echo of `command` (the screen that command drew).
    static func screen(after command: String, in transcript: String) -> String {
        guard let range = transcript.range(of: "> \(command)\n", options: .backwards) else { return "" }
        return String(transcript[range.upperBound...])
    }

    @Test("register, log in, add two jogs, see the totals; after a restart they are still there")
    func registerAddRestart() throws {
        let den = try DenCommand()
        let register = "press create account\nset username alice\nset password\n\(Self.alicePassword)\nset repeat\n\(Self.alicePassword)\npress create account\n"
        let first = try den.run(["run", "jogs", "--log-level", "debug"], input: register
            + Self.addJog(date: "2026-11-02", km: "5", duration: "30:00")
            + Self.addJog(date: "2026-11-04", km: "10.5", duration: "1:00:00")
            + "go jogs\nquit\n")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("— login?next=jogs ·"), "logged out, jogs opens the login screen first")
        let list = Self.screen(after: "go jogs", in: first.stdout)
        #expect(list.contains("Jogs of alice"), "\(list)")
        #expect(list.contains("2026-11-04 · 10.5 km in 1:00:00 — pace 5:43 min/km"), "\(list)")
        #expect(list.contains("2026-11-02 · 5 km in 30:00 — pace 6:00 min/km"))
        // 15.5 km in 5,400 s: 348.4 s per km.
        #expect(list.contains("2 jogs · 15.5 km · 1:30:00 · average pace 5:48 min/km"), "\(list)")

        // A new process: the account and the jogs come from storage.sqlite.
        let second = try den.run(["run", "login?next=jogs"], input: Self.logIn("alice", Self.alicePassword) + "go jogs/report\nquit\n")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("2 jogs · 15.5 km · 1:30:00 · average pace 5:48 min/km"), "\(second.stdout)")
        let report = Self.screen(after: "go jogs/report", in: second.stdout)
        #expect(report.contains("2026-W45"), "\(report)")
        #expect(report.contains("15.5 km"))

        // The password is nowhere on disk or in the (debug-level) log.
        let file = try Data(contentsOf: den.temp.path("data").appendingPathComponent("storage.sqlite"))
        #expect(file.range(of: Data(Self.alicePassword.utf8)) == nil, "storage.sqlite holds the password")
        for output in [first.stdout, first.stderr, second.stdout, second.stderr] {
            #expect(!output.contains(Self.alicePassword), "the password was printed")
        }
    }

    @Test("after five wrong passwords the account waits 30 seconds, and the screen says so")
    func lockout() throws {
        let den = try DenCommand()
        #expect(try den.run(["users", "add", "alice"], input: Self.alicePassword + "\n").status == 0)
        let wrong = String(repeating: Self.logIn("alice", "not-the-password"), count: 5)
        let result = try den.run(["run", "login"], input: wrong + Self.logIn("alice", Self.alicePassword) + "quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        let attempts = result.stdout.components(separatedBy: "> press log in\n").dropFirst()
        #expect(attempts.count == 6)
        for attempt in attempts.prefix(4) { #expect(attempt.contains("Wrong username or password."), "\(attempt)") }
        let locked = attempts.dropFirst(4)
        for attempt in locked {
            #expect(attempt.contains("Too many failed logins"), "\(attempt)")
            #expect(attempt.contains("try again in ") && attempt.contains("seconds"), "\(attempt)")
            #expect(!attempt.contains("Logged in as alice"), "the right password waits too")
        }
    }

    @Test("a second user gets 'not found' for the first user's jog, in a screen and a deep link")
    func ownerOnly() throws {
        let den = try DenCommand()
        #expect(try den.run(["users", "add", "alice"], input: Self.alicePassword + "\n").status == 0)
        #expect(try den.run(["users", "add", "bob"], input: Self.bobPassword + "\n").status == 0)
        let alice = try den.run(["run", "login?next=jogs"], input: Self.logIn("alice", Self.alicePassword)
            + Self.addJog(date: "2026-11-03", km: "7.25", duration: "41:10") + "quit\n")
        #expect(alice.status == 0, "\(alice.stderr)")
        #expect(alice.stdout.contains("— jogs/1 ·"), "alice's first jog is jogs/1: \(alice.stdout)")

        let bob = try den.run(["run", "login?next=jogs%2F1"], input: Self.logIn("bob", Self.bobPassword)
            + "go jogs/2\ngo jogs\nquit\n")
        let own = Self.screen(after: "press log in", in: bob.stdout)
        let missing = Self.screen(after: "go jogs/2", in: bob.stdout)
        #expect(own.contains("— jogs/1 ·"), "bob reaches jogs/1 after logging in: \(own)")
        #expect(!bob.stdout.contains("7.25"), "bob never sees alice's distance")
        #expect(!bob.stdout.contains("41:10"), "bob never sees alice's duration")
        #expect(!bob.stdout.contains("2026-11-03"), "bob never sees alice's date")
        // Alice's id and an id nobody has read the same, apart from the id itself.
        #expect(own.replacingOccurrences(of: "jogs/1", with: "jogs/N").replacingOccurrences(of: " 1", with: " N")
            .components(separatedBy: "\n— ").first
            == missing.replacingOccurrences(of: "jogs/2", with: "jogs/N").replacingOccurrences(of: " 2", with: " N")
            .components(separatedBy: "\n— ").first, "own: \(own)\nmissing: \(missing)")
        #expect(Self.screen(after: "go jogs", in: bob.stdout).contains("No jogs yet"))
    }
}
