@testable import DenHost
@testable import DenWeb
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Logs `browser` in through the Login plugin's form.
private func logIn(_ browser: Browser, _ username: String, _ password: String) async throws -> Page {
    _ = try await browser.get("/login")
    let reply = try await browser.post("/_action", [("_route", "login"), ("_action", "log-in"),
                                                    ("f.username", username), ("f.password", password)])
    return try await browser.get(reply.location ?? "/")
}

@Suite("One account's sessions: a password change or reset ends the others; a cap per account")
struct AccountSessionTests {
    @Test("a password change logs the user's other browsers out, and the page says how many")
    func changeEndsOtherSessions() async throws {
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"])
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        _ = try harness.runtime.accounts.register(username: "bob", password: "Bobs-Own-Words-7")
        try await harness.test { client in
            let laptop = Browser(client, harness.server), phone = Browser(client, harness.server)
            let tablet = Browser(client, harness.server), bob = Browser(client, harness.server)
            for browser in [laptop, phone, tablet] { _ = try await logIn(browser, "alice", "Sesame-Opens-42") }
            _ = try await logIn(bob, "bob", "Bobs-Own-Words-7")
            #expect(try await phone.get("/jogs").status == .ok)

            _ = try await laptop.get("/login/password")
            let change = try await laptop.post("/_action", [("_route", "login/password"), ("_action", "change"),
                                                            ("f.current", "Sesame-Opens-42"), ("f.password", "New-Sesame-Words-9"),
                                                            ("f.repeat", "New-Sesame-Words-9")])
            let page = try await laptop.get(change.location ?? "/")
            #expect(page.body.contains("Your password is changed"))
            #expect(page.body.contains("2 other sessions were logged out."), "\(page.body)")
            #expect(try await laptop.get("/jogs").status == .ok, "the browser that changed it stays logged in")
            for browser in [phone, tablet] {
                #expect(try await browser.get("/jogs").location == "/login?next=jogs")
            }
            #expect(try await bob.get("/jogs").status == .ok, "another user's session is left alone")
        }
    }

    @Test("a reset with a token logs every session of that user out, and the page says how many")
    func resetEndsSessions() async throws {
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"])
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        try await harness.test { client in
            let stolen = Browser(client, harness.server), owner = Browser(client, harness.server)
            _ = try await logIn(stolen, "alice", "Sesame-Opens-42")
            let (token, _) = try harness.runtime.accounts.makeResetToken(for: "alice")
            _ = try await owner.get("/login/reset")
            let reset = try await owner.post("/_action", [("_route", "login/reset"), ("_action", "reset"), ("f.token", token),
                                                          ("f.password", "New-Sesame-Words-9"), ("f.repeat", "New-Sesame-Words-9")])
            let page = try await owner.get(reset.location ?? "/")
            #expect(page.body.contains("1 other session was logged out."), "\(page.body)")
            #expect(page.body.contains("Continue to main"))
            #expect(try await stolen.get("/jogs").location == "/login?next=jogs")
            #expect(try await owner.get("/jogs").status == .ok)
        }
    }

    @Test("one account logging in again and again ends its own oldest sessions, never an idle user's")
    func perAccountCap() async throws {
        var web = WebConfiguration()
        web.maxSessions = 4
        web.maxSessionsPerAccount = 2
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"], web: web)
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        _ = try harness.runtime.accounts.register(username: "bob", password: "Bobs-Own-Words-7")
        try await harness.test { client in
            let bob = Browser(client, harness.server)
            _ = try await logIn(bob, "bob", "Bobs-Own-Words-7")
            var alices: [Browser] = []
            for _ in 0..<20 {
                let browser = Browser(client, harness.server)
                _ = try await logIn(browser, "alice", "Sesame-Opens-42")
                alices.append(browser)
            }
            #expect(try await bob.get("/jogs").status == .ok, "the idle user is still logged in")
            #expect(try await alices[19].get("/jogs").status == .ok)
            #expect(try await alices[18].get("/jogs").status == .ok)
            #expect(try await alices[0].get("/jogs").location == "/login?next=jogs", "alice's oldest session was ended")
        }
    }
}
