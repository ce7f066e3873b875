@testable import DenHost
@testable import DenWeb
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Login in the browser, through the real Login and Jogs plugins")
struct LoginThroughWebTests {
    @Test("a guarded route redirects to login; wrong passwords lead to the host's lockout; the right one logs in")
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
            // Even the right password is refused while locked.
            let locked = try await browser.post("/_action", [("_route", "login?next=jogs"), ("_action", "log-in"),
                                                             ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
            #expect(try await browser.get(locked.location ?? "/").body.contains("locked"))
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
}
