@testable import DenWeb
@testable import DenHost
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Browser sessions: cookie, expiry, cap")
struct WebSessionTests {
    @Test("the cookie is Secure only behind a trusted proxy that says https")
    func secureCookie() async throws {
        for (trust, proto, secure) in [(false, "https", false), (true, "https", true), (true, "http", false)] {
            let harness = try WebHarness(web: WebConfiguration(trustProxy: trust))
            try await harness.test { client in
                let page = try await Browser(client, harness.server).get("/main", headers: [.xForwardedProto: proto])
                #expect(page.setCookie?.contains("Secure") == secure, "trust \(trust), \(proto)")
            }
        }
    }

    @Test("an idle session expires: the old cookie gets a new session, and the host forgets the old one")
    func expiry() async throws {
        let clock = ManualClock()
        let harness = try WebHarness(web: WebConfiguration(sessionIdleTimeout: .seconds(60), now: { clock.now }))
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            _ = try await browser.post("/_action", [("_route", "main"), ("_action", "go")])
            let first = try #require(browser.cookie)
            clock.advance(.seconds(59))
            #expect(try await browser.get("/other").setCookie == nil)
            clock.advance(.seconds(61))
            let page = try await browser.get("/other")
            #expect(page.setCookie != nil)
            #expect(browser.cookie != first)
            #expect(harness.server.responder.sessions.count == 1)
            // A fresh session: `other` is its first screen.
            #expect(harness.server.responder.sessions.existing(browser.cookie)?.navigation.current?.backStack == [])
            // The unknown (old) cookie is not an error: just a new session.
            let old = Browser(client, harness.server)
            old.cookie = first
            #expect(try await old.get("/main").status == .ok)
            #expect(old.cookie != first)
        }
    }

    @Test("expired sessions are swept by later requests of other browsers, and their logins forgotten")
    func sweep() async throws {
        let clock = ManualClock()
        let harness = try WebHarness(web: WebConfiguration(sessionIdleTimeout: .seconds(60), now: { clock.now }))
        try await harness.test { client in
            let gone = Browser(client, harness.server), staying = Browser(client, harness.server)
            _ = try await gone.get("/main")
            _ = try await staying.get("/main")
            let id = try #require(harness.server.responder.sessions.existing(gone.cookie)?.navigation.id)
            _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
            harness.runtime.sessions.setUser("alice", of: id)
            #expect(harness.runtime.sessions.user(of: id) == "alice")
            clock.advance(.seconds(50))
            _ = try await staying.get("/main")
            clock.advance(.seconds(50))
            _ = try await staying.get("/main")
            #expect(harness.server.responder.sessions.count == 1)
            // The end runs on the session's queue: wait for it, with a deadline only against a hang.
            let deadline = ContinuousClock.now + .seconds(60)
            while harness.runtime.sessions.user(of: id) != nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(harness.runtime.sessions.user(of: id) == nil)
        }
    }

    @Test("at the cap the longest idle session is ended for a new one")
    func cap() async throws {
        let clock = ManualClock()
        let harness = try WebHarness(web: WebConfiguration(maxSessions: 2, now: { clock.now }))
        try await harness.test { client in
            let a = Browser(client, harness.server), b = Browser(client, harness.server), c = Browser(client, harness.server)
            _ = try await a.get("/main")
            clock.advance(.seconds(1))
            _ = try await b.get("/main")
            clock.advance(.seconds(1))
            _ = try await a.get("/main") // a is now the more recently used
            clock.advance(.seconds(1))
            _ = try await c.get("/main")
            #expect(harness.server.responder.sessions.count == 2)
            let bCookie = b.cookie
            #expect(harness.server.responder.sessions.existing(a.cookie) != nil)
            #expect(harness.server.responder.sessions.existing(bCookie) == nil)
            #expect(try await b.get("/main").setCookie != nil)
        }
    }

    @Test("a malformed cookie is ignored: the visitor gets a new session")
    func malformedCookie() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            browser.cookie = "../../etc/passwd"
            let page = try await browser.get("/main")
            #expect(page.status == .ok)
            #expect(page.setCookie != nil)
        }
    }
}

@Suite("Where den serve listens")
struct WebListenTests {
    @Test("only loopback addresses count as loopback (anything else is logged as a warning)")
    func loopback() {
        for host in ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"] { #expect(WebConfiguration(host: host).bindsLoopback, "\(host)") }
        for host in ["0.0.0.0", "::", "192.0.2.1", "example.org"] { #expect(!WebConfiguration(host: host).bindsLoopback, "\(host)") }
    }

    @Test("a request head over the limit is refused before den reads it, over a real socket")
    func headerLimit() async throws {
        let harness = try WebHarness()
        try await harness.server.makeApplication().test(.live) { client in
            let ok = try await client.executeRequest(uri: "/_health", method: .get, headers: [:], body: nil)
            #expect(ok.status == .ok)
            let big = try? await client.executeRequest(uri: "/_health", method: .get,
                                                       headers: [.xForwardedProto: String(repeating: "x", count: 20_000)], body: nil)
            #expect(big == nil || big?.status == .badRequest)
        }
    }
}
