@testable import DenHost
@testable import DenWeb
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Login in the browser, through the real Login and Jogs plugins")
struct LoginThroughWebTests {
    @Test("a guarded route redirects to login; wrong passwords lead to the host's growing delay; the right one logs in")
    func lockout() async throws {
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"])
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            let jogs = try await browser.get("/jogs")
            #expect(jogs.status == .seeOther)
            #expect(jogs.location == "/login?next=jogs")
            let login = try await browser.get("/login?next=jogs")
            #expect(login.status == .ok)
            #expect(login.body.contains("Log in"))
            for _ in 0..<5 {
                let reply = try await browser.post("/_action", [("_route", "login?next=jogs"), ("_action", "log-in"),
                                                                ("f.username", "alice"), ("f.password", "wrong-password")])
                #expect(reply.status == .seeOther)
                #expect(try await browser.get(reply.location ?? "/").status == .ok)
            }
            // Even the right password waits while the delay runs, and the page says how long.
            let locked = try await browser.post("/_action", [("_route", "login?next=jogs"), ("_action", "log-in"),
                                                             ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
            let held = try await browser.get(locked.location ?? "/").body
            #expect(held.contains("Too many failed logins for this account: try again in "), "\(held)")
            #expect(held.contains(" seconds (after "), "a wait of under 30 seconds")
            // Another browser session is not logged in either, and a fresh login works once unlocked.
            _ = try harness.runtime.accounts.unlock("alice")
            let ok = try await browser.post("/_action", [("_route", "login?next=jogs"), ("_action", "log-in"),
                                                         ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
            #expect(ok.location == "/jogs")
            #expect(try await browser.get("/jogs").status == .ok)
            let stranger = Browser(client, harness.server)
            #expect(try await stranger.get("/jogs").location == "/login?next=jogs")
        }
    }

    @Test("a login and a logout each give the browser a new session cookie; the old one no longer works")
    func cookieRotates() async throws {
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"])
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/login")
            let before = try #require(browser.cookie)
            let login = try await browser.post("/_action", [("_route", "login"), ("_action", "log-in"),
                                                            ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
            let during = try #require(login.setCookie.flatMap(Browser.cookieValue), "a login sets a new cookie")
            #expect(during != before)
            #expect(harness.server.responder.sessions.existing(before) == nil, "the cookie seen before the login is dead")
            #expect(try await browser.get("/jogs").status == .ok)

            _ = try await browser.get("/login")
            let logout = try await browser.post("/_action", [("_route", "login"), ("_action", "log-out")])
            let after = try #require(logout.setCookie.flatMap(Browser.cookieValue), "a logout sets a new cookie")
            #expect(after != during)
            #expect(try await browser.get("/jogs").location == "/login?next=jogs")
        }
    }

    @Test("a browser that logged in to the account before is let in while strangers wait")
    func deviceCookie() async throws {
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"])
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        try await harness.test { client in
            let owner = Browser(client, harness.server)
            _ = try await owner.get("/login")
            _ = try await owner.post("/_action", [("_route", "login"), ("_action", "log-in"), ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
            let device = try #require(owner.device.withLock { $0 }, "a login sets den_device")
            #expect(device.hasPrefix("alice:"))
            _ = try await owner.get("/login")
            _ = try await owner.post("/_action", [("_route", "login"), ("_action", "log-out")])

            let attacker = Browser(client, harness.server)
            _ = try await attacker.get("/login")
            for _ in 0..<6 {
                _ = try await attacker.post("/_action", [("_route", "login"), ("_action", "log-in"), ("f.username", "alice"), ("f.password", "guess-guess")])
            }
            let stranger = Browser(client, harness.server)
            _ = try await stranger.get("/login")
            let held = try await stranger.post("/_action", [("_route", "login"), ("_action", "log-in"), ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
            #expect(try await stranger.get(held.location ?? "/").body.contains("Too many failed logins"))

            _ = try await owner.get("/login")
            let back = try await owner.post("/_action", [("_route", "login"), ("_action", "log-in"), ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
            #expect(back.location == "/main", "the owner's browser is not held up")
            #expect(try await owner.get("/jogs").status == .ok)
        }
    }
}
