@testable import DenWeb
import DenWebPages
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("CSRF, limits and malformed forms")
struct WebSecurityTests {
    @Test("a post without the CSRF token, or with another one, is refused with 403 and reaches no module")
    func csrf() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            let missing = try await browser.post("/_action", [("_route", "main"), ("_action", "go")], csrf: false)
            #expect(missing.status == .forbidden)
            #expect(missing.body.contains("without its security token"))
            let wrong = try await browser.post("/_action", [("_csrf", String(repeating: "0", count: 32)), ("_route", "main"), ("_action", "go")])
            #expect(wrong.status == .forbidden)
            #expect(wrong.body.contains("reload the page"))
            for path in [FormNames.backPath, FormNames.changePath] {
                #expect(try await browser.post(path, [("_route", "main"), ("_field", "name")], csrf: false).status == .forbidden)
            }
            // Another browser's token does not work here either.
            let other = Browser(client, harness.server)
            _ = try await other.get("/main")
            #expect(try await browser.post("/_action", [("_csrf", other.csrf), ("_route", "main"), ("_action", "go")]).status == .forbidden)
            #expect(harness.probe.received.isEmpty)
        }
    }

    @Test("a post with no session cookie gets a 403, not an action, and makes no session")
    func postWithoutSession() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let page = try await Browser(client, harness.server).postRaw("/_action", body: "_csrf=abc&_route=main&_action=go")
            #expect(page.status == .forbidden)
            #expect(page.setCookie == nil)
            #expect(page.body.contains("without a live session"))
            #expect(harness.probe.received.isEmpty)
        }
    }

    @Test("a body over the limit gets a 413 page")
    func oversizeBody() async throws {
        var web = WebConfiguration()
        web.limits.maxBodyBytes = 1024
        let harness = try WebHarness(web: web)
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            let page = try await browser.post("/_action", [("_route", "main"), ("_action", "echo"), ("f.note", String(repeating: "x", count: 5000))])
            #expect(page.status == .contentTooLarge)
            #expect(page.body.contains("more than 1 KiB"))
            #expect(harness.probe.received.isEmpty)
        }
    }

    @Test("malformed forms get a 400 page saying what was wrong")
    func malformed() async throws {
        var web = WebConfiguration()
        web.limits.maxFields = 5
        web.limits.maxFieldValueBytes = 100
        let harness = try WebHarness(web: web)
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            let token = browser.csrf
            let cases: [(String, String)] = [
                ("_csrf=\(token)&_route=main&_action=echo&f.note=%zz", "not followed by two hex digits"),
                ("_csrf=\(token)&_route=main&_action=echo&f.note=%ff", "not valid UTF-8"),
                ("_csrf=\(token)&_route=main&_action=echo&f.note=1&f.note=2", "sent field &#39;f.note&#39; twice"),
                ("_csrf=\(token)&a=1&b=2&c=3&d=4&e=5", "at most 5"),
                ("_csrf=\(token)&_route=main&_action=echo&f.note=\(String(repeating: "y", count: 101))", "at most 100"),
                ("_csrf=\(token)&_action=echo", "no &#39;_route&#39; field"),
                ("_csrf=\(token)&_route=main", "names no button"),
            ]
            for (body, message) in cases {
                let page = try await browser.postRaw("/_action", body: body)
                #expect(page.status == .badRequest, "\(body)")
                let plain = page.body.replacingOccurrences(of: "&#39;", with: "'")
                #expect(plain.contains(message.replacingOccurrences(of: "&#39;", with: "'")), "\(body): \(page.body)")
            }
            let json = try await browser.postRaw("/_action", body: "{}", contentType: "application/json")
            #expect(json.status == .unsupportedMediaType)
            #expect(json.body.contains("application/x-www-form-urlencoded"))
            #expect(harness.probe.received.isEmpty)
        }
    }

    @Test("routes become safe Location paths: no //host, no header splitting")
    func locations() {
        #expect(RouteLocation.path(for: "convert/1/usd/eur?x=1&y=%20") == "/convert/1/usd/eur?x=1&y=%20")
        #expect(RouteLocation.path(for: "/evil.example") == "/%2Fevil.example")
        #expect(RouteLocation.path(for: "a\r\nSet-Cookie: x") == "/a%0D%0ASet-Cookie:%20x")
        #expect(RouteLocation.path(for: "\\evil") == "/%5Cevil")
        #expect(RouteLocation.path(for: "café#top") == "/caf%C3%A9%23top")
        #expect(RouteLocation.route(path: "/jogs", query: "from=2026-01-01") == "jogs?from=2026-01-01")
        #expect(RouteLocation.route(path: "/", query: nil) == "")
    }

    @Test("session tokens are 128 random bits in hex and compare exactly")
    func tokens() {
        let a = SessionToken.make(), b = SessionToken.make()
        #expect(a != b)
        #expect(SessionToken.isWellFormed(a))
        #expect(!SessionToken.isWellFormed("../../etc"))
        #expect(SessionToken.matches(a, expected: a))
        #expect(!SessionToken.matches(b, expected: a))
        #expect(!SessionToken.matches(String(a.dropLast()), expected: a))
    }
}
