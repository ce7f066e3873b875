import DenTestSupport
import Foundation
import Testing

/// The Login module (libLoginModule.so) driven through the real `den` and the real `auth`
/// service (real scrypt: about a second per hash in a debug build, so one account per test).
@Suite("Logging in, end to end")
struct LoginEndToEndTests {
    static let password = "Sesame-Opens-42"

    /// A den with the account `alice` made by the administrator's `den users add`.
    func denWithAlice() throws -> DenCommand {
        let den = try DenCommand()
        let added = try den.run(["users", "add", "alice"], input: Self.password + "\n")
        #expect(added.status == 0, "\(added.stderr)")
        return den
    }

    /// A scripted `den run` session; the password is typed at the hidden prompt (`set password`
    /// alone), so the script never prints it.
    func logIn(_ den: DenCommand, route: String, password: String) throws -> ProcessResult {
        try den.run(["run", route], input: "set username alice\nset password\n\(password)\npress log-in\nquit\n")
    }

    @Test("den render login draws the login form with an empty password field")
    func renderLogin() throws {
        let result = try DenCommand().run(["render", "login?next=about"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Log in\n"))
        #expect(result.stdout.contains("Log in to go on to about."))
        #expect(result.stdout.contains("Password [password]: \n") || result.stdout.contains("Password [password]:\n"))
        #expect(result.stdout.contains("Create account"))
        #expect(result.stdout.contains("Forgot password"))
    }

    @Test("a user made with den users add logs in and goes on to next; the password is never printed")
    func logInGoesOn() throws {
        let den = try denWithAlice()

        let result = try logIn(den, route: "login?next=about", password: Self.password)

        #expect(result.status == 0, "\(result.stderr)")
        let after = try #require(result.stdout.components(separatedBy: "> press log-in").last)
        #expect(after.contains("About Den"), "\(after)")
        #expect(!result.stdout.contains(Self.password))
        #expect(!result.stderr.contains(Self.password))
    }

    @Test("a wrong password says so and the form comes back with the username and an empty password")
    func wrongPassword() throws {
        let den = try denWithAlice()

        let result = try logIn(den, route: "login", password: "Not-The-Password-1")

        let after = try #require(result.stdout.components(separatedBy: "> press log-in").last)
        #expect(after.contains("[ERROR] Wrong username or password."), "\(after)")
        #expect(after.contains("Username [username]: alice"))
        #expect(after.contains("Password [password]: \n") || after.contains("Password [password]:\n"))
        #expect(!result.stdout.contains("Not-The-Password-1"))
    }
}
