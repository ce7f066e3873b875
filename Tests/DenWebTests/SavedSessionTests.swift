import DenAccounts
@testable import DenHost
import DenTestSupport
@testable import DenWeb
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Browser sessions saved in storage after every request: a second den serve on the same data
/// (a restart, or another host behind a load balancer) carries a session on where the first left it.
@Suite("Browser sessions kept in storage")
struct SavedSessionTests {
    /// A second host: its own runtime and server on the first one's data folder and plugins.
    private static func secondHost(of harness: WebHarness) throws -> (DenRuntime, WebServer) {
        var configuration = HostConfiguration(pluginDirectories: [harness.temp.path("plugins")], cacheDirectory: harness.temp.path("cache-2"),
                                              dataDirectory: harness.temp.path("data"))
        var settings = AuthSettings()
        settings.hashParameters = .testing
        configuration.auth = settings
        let runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins()
        return (runtime, WebServer(runtime: runtime, configuration: WebConfiguration()))
    }

    private static func logIn(_ browser: Browser) async throws {
        _ = try await browser.get("/login?next=jogs")
        let login = try await browser.post("/_action", [("_route", "login?next=jogs"), ("_action", "log-in"),
                                                        ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
        #expect(login.location == "/jogs", "logged in")
    }

    @Test("another den on the same data answers the same cookie logged in, on the same form with the values typed so far")
    func carriedOn() async throws {
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"])
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        let (_, other) = try Self.secondHost(of: harness)
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            try await Self.logIn(browser)
            _ = try await browser.get("/jogs/new")
            // A save the form refuses keeps the typed values on the screen (and in the module's state).
            let refused = try await browser.post("/_action", [("_route", "jogs/new"), ("_action", "save"), ("f.date", "2026-11-20"),
                                                              ("f.distance", "7.25"), ("f.duration", "not a time")])
            #expect(refused.status == .seeOther)
            let csrf = browser.csrf
            let cookie = try #require(browser.cookie)

            try await other.makeApplication().test(.router) { secondClient in
                let elsewhere = Browser(secondClient, other)
                elsewhere.cookie = cookie
                let form = try await elsewhere.get("/jogs/new")
                #expect(form.status == .ok, "still logged in: \(form.status) \(form.location ?? "")")
                #expect(form.body.contains("7.25"), "the typed distance came across")
                #expect(elsewhere.csrf == csrf, "the same CSRF token")
                // And it goes on there: a valid save lands on the new jog.
                let saved = try await elsewhere.post("/_action", [("_route", "jogs/new"), ("_action", "save"), ("f.date", "2026-11-20"),
                                                                  ("f.distance", "7.25"), ("f.duration", "40:00")])
                #expect(saved.location?.hasPrefix("/jogs/") == true, "\(saved.location ?? "")")
            }
        }
    }

    @Test("a password changed on one den logs the user's session out on another den, which holds it in memory")
    func passwordChangeReachesOtherHosts() async throws {
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"])
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        let (_, other) = try Self.secondHost(of: harness)
        try await harness.test { client in
            let laptop = Browser(client, harness.server)
            try await Self.logIn(laptop)
            try await other.makeApplication().test(.router) { secondClient in
                // The phone is served by the other den, which keeps its session in memory.
                let phone = Browser(secondClient, other)
                try await Self.logIn(phone)
                #expect(try await phone.get("/jogs").status == .ok)

                _ = try await laptop.get("/login/password")
                let change = try await laptop.post("/_action", [("_route", "login/password"), ("_action", "change"),
                                                                ("f.current", "Sesame-Opens-42"), ("f.password", "New-Sesame-Words-9"),
                                                                ("f.repeat", "New-Sesame-Words-9")])
                #expect(try await laptop.get(change.location ?? "/").body.contains("Your password is changed"))
                #expect(try await laptop.get("/jogs").status == .ok, "the browser that changed it stays logged in")
                let stale = try await phone.get("/jogs")
                #expect(stale.location == "/login?next=jogs", "the other den's session is logged out: \(stale.status) \(stale.location ?? "")")
            }
        }
    }

    @Test("a session that logged out, or ended, is not brought back by another den")
    func endedStaysEnded() async throws {
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"])
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        let (_, other) = try Self.secondHost(of: harness)
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            try await Self.logIn(browser)
            let loggedIn = try #require(browser.cookie)
            _ = try await browser.get("/login")
            _ = try await browser.post("/_action", [("_route", "login"), ("_action", "log-out")])
            try await other.makeApplication().test(.router) { secondClient in
                let elsewhere = Browser(secondClient, other)
                elsewhere.cookie = loggedIn
                let jogs = try await elsewhere.get("/jogs")
                #expect(jogs.location == "/login?next=jogs", "the cookie from before the logout opens nothing")
            }
        }
    }

    @Test("a logout on one den ends the cookie on another den that holds it logged in, at its next request")
    func logoutReachesAHostHoldingTheSession() async throws {
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"])
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        let (_, other) = try Self.secondHost(of: harness)
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            try await Self.logIn(browser)
            let loggedIn = try #require(browser.cookie)
            try await other.makeApplication().test(.router) { secondClient in
                // The other den serves this browser too, and now holds its session in memory.
                let elsewhere = Browser(secondClient, other)
                elsewhere.cookie = loggedIn
                #expect(try await elsewhere.get("/jogs").status == .ok)
                // The browser logs out through the first den.
                _ = try await browser.get("/login")
                let out = try await browser.post("/_action", [("_route", "login"), ("_action", "log-out")])
                #expect(out.setCookie != nil, "a new cookie at the logout")
                // Someone replays the old cookie at the other den: nothing of the login is left.
                elsewhere.cookie = loggedIn
                let replay = try await elsewhere.get("/jogs")
                #expect(replay.location == "/login?next=jogs", "\(replay.status) \(replay.location ?? "")")
                #expect(elsewhere.cookie != loggedIn, "and the old cookie is replaced")
            }
        }
    }

    @Test("an idle session past the timeout ends with its saved copy: no host brings it back")
    func expired() async throws {
        let clock = ManualClock()
        var web = WebConfiguration(sessionIdleTimeout: .seconds(60))
        web.now = { clock.now }
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"], web: web)
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        let (_, other) = try Self.secondHost(of: harness)
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            try await Self.logIn(browser)
            let cookie = try #require(browser.cookie)
            clock.advance(.seconds(61))
            let here = try await browser.get("/jogs")
            #expect(here.location == "/login?next=jogs", "expired here")
            try await other.makeApplication().test(.router) { secondClient in
                let elsewhere = Browser(secondClient, other)
                elsewhere.cookie = cookie
                let there = try await elsewhere.get("/jogs")
                #expect(there.location == "/login?next=jogs", "and its saved copy is gone")
            }
        }
    }
}
