@testable import DenHost
import DenSupport
@testable import DenWeb
import DenKit
import DenWebPages
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// A form post with extra headers (Origin, Referer, X-Forwarded-For).
private func post(_ browser: Browser, _ fields: [(String, String)], headers: HTTPFields = [:]) async throws -> Page {
    var all = fields
    all.insert((FormNames.csrf, browser.csrf), at: 0)
    let body = all.map { "\(Browser.encode($0.0))=\(Browser.encode($0.1))" }.joined(separator: "&")
    var headers = headers
    headers[.contentType] = "application/x-www-form-urlencoded"
    return try await browser.send("/_action", method: .post, headers: headers, body: ByteBuffer(string: body))
}

@Suite("den serve under attack: CSRF rotation, Origin, audit addresses, weak passwords and long lists in the browser")
struct WebAttackTests {
    @Test("the CSRF token changes at login and at logout; the old one is refused")
    func csrfRotates() async throws {
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"])
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/login")
            let before = browser.csrf
            _ = try await browser.post("/_action", [("_route", "login"), ("_action", "log-in"), ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
            let during = browser.csrf
            #expect(during != before && during != "none")
            _ = try await browser.get("/login")
            let stale = try await browser.post("/_action", [("_csrf", before), ("_route", "login"), ("_action", "log-out")])
            #expect(stale.status == .forbidden, "a token from before the login is refused")
            _ = try await browser.post("/_action", [("_route", "login"), ("_action", "log-out")])
            #expect(browser.csrf != during, "a logout gives a new token too")
        }
    }

    @Test("a post whose Origin or Referer names another site is refused before any module sees it; Origin null is not")
    func foreignOrigin() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            let form = [("_route", "main"), ("_action", "go")]
            let evil = try await post(browser, form, headers: [.origin: "https://evil.example"])
            #expect(evil.status == .forbidden)
            #expect(evil.body.contains("This form came from another site"))
            #expect(evil.body.contains("evil.example"))
            let referred = try await post(browser, form, headers: [.referer: "http://evil.example/page"])
            #expect(referred.status == .forbidden)
            #expect(harness.probe.received.isEmpty)
            // Den's own pages send no Referer and `Origin: null` (Referrer-Policy: no-referrer).
            #expect(try await post(browser, form, headers: [.origin: "null"]).status == .seeOther)
            #expect(try await post(browser, form).status == .seeOther)
            #expect(!harness.probe.received.isEmpty, "the same-site post reached the module")
        }
    }

    @Test("Origin is compared with the request's host")
    func originAuthority() {
        #expect(OriginCheck.authority(of: "http://127.0.0.1:8080") == "127.0.0.1:8080")
        #expect(OriginCheck.authority(of: "https://user@Den.Example/x?y") == "den.example")
        #expect(OriginCheck.authority(of: "null") == nil)
    }

    @Test("audit lines carry X-Forwarded-For's last address only with --trust-proxy")
    func auditAddress() async throws {
        for trust in [true, false] {
            let log = LogCollector()
            var web = WebConfiguration()
            web.trustProxy = trust
            let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"], web: web, logger: log.logger(label: "den", level: .warning))
            _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
            try await harness.test { client in
                let browser = Browser(client, harness.server)
                _ = try await browser.get("/login")
                _ = try await post(browser, [("_route", "login"), ("_action", "log-in"), ("f.username", "alice"), ("f.password", "wrong-words-1")],
                                   headers: [.xForwardedFor: "10.9.9.9, 203.0.113.5"])
            }
            let failed = try #require(log.lines.first { $0.metadata["event"] == "login.failed" })
            #expect(failed.metadata["account"] == "alice")
            #expect(failed.metadata["client"] == (trust ? "203.0.113.5" : "unknown"), "trust-proxy \(trust)")
            #expect(failed.level == .notice)
            #expect(!log.lines.contains { "\($0.message)\($0.metadata)".contains("wrong-words-1") })
        }
    }

    @Test("a common password or the username is refused at Create account, and the page says why")
    func weakPasswordOnScreen() async throws {
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"])
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/login/register")
            for (password, why) in [("password1", "common and breached passwords"), ("Marathoner", "same as the username")] {
                let reply = try await browser.post("/_action", [("_route", "login/register"), ("_action", "register"), ("f.username", "marathoner"),
                                                                ("f.password", password), ("f.repeat", password)])
                #expect(try await browser.get(reply.location ?? "/").body.contains(why), "\(password)")
            }
            #expect(try harness.runtime.accounts.users().isEmpty)
        }
    }

    @Test("GET /jogs with 120 jogs shows 50 and a link to the older ones; the totals count all 120")
    func jogsPaged() async throws {
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"])
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        let operations = (1...120).map { id in
            StorageOperation.set(key: "user/alice/jogs/\(id)", value: #"{"v":1,"id":\#(id),"date":"2025-0\#(1 + id / 31)-\#(String(format: "%02d", 1 + id % 28))","distance_m":5000,"duration_s":1800}"#)
        }
        try harness.runtime.accounts.store.engine.apply(namespace: "jogs", operations: operations)
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/login")
            _ = try await browser.post("/_action", [("_route", "login"), ("_action", "log-in"), ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
            let page = try await browser.get("/jogs")
            #expect(page.status == .ok)
            #expect(page.body.components(separatedBy: "href=\"/jogs/").count - 1 == 50 + 2, "50 jogs, New jog and Weekly report")
            #expect(page.body.contains("Jogs 1–50 of 120 · page 1 of 3"))
            #expect(page.body.contains("href=\"/jogs?page=2\""))
            #expect(page.body.contains("120 jogs · 600 km"))
            let third = try await browser.get("/jogs?page=3")
            #expect(third.body.contains("Jogs 101–120 of 120 · page 3 of 3"))
        }
    }
}
