@testable import DenWeb
import DenKit
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("GET pages, /_screen, /_health and assets")
struct PageServingTests {
    @Test("GET / renders the home route in a new session and sets the session cookie")
    func home() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            let page = try await browser.get("/")
            #expect(page.status == .ok)
            #expect(page.body.contains("Main page"))
            #expect(page.body.contains("Hello &lt;b&gt;world&lt;/b&gt;"))
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let cookie = try #require(page.setCookie)
            #expect(cookie.hasPrefix("den_session="))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(cookie.contains("Path=/"))
            #expect(!cookie.contains("Secure"))
            let id = try #require(browser.cookie)
            #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
            // The CSRF token is in the page for the forms.
            #expect(page.body.contains(browser.csrf))
            // The same browser keeps its session: no new cookie.
            #expect(try await browser.get("/main").setCookie == nil)
        }
    }

    @Test("a route no module serves is a 404 page; other sessions are not affected")
    func notFound() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let page = try await Browser(client, harness.server).get("/no/such/route")
            #expect(page.status == .notFound)
            #expect(page.body.contains("no/such/route"))
        }
    }

    @Test("a builder's refusal of bad input is a 4xx with the module's own message; only a failure is a 500")
    func refusalsAreClientErrors() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            let input = try await browser.get("/refuse/input")
            #expect(input.status == .badRequest)
            #expect(input.body.contains("is not a value this page takes"))
            let unsupported = try await browser.get("/refuse/unsupported")
            #expect(unsupported.status == .badRequest)
            #expect(unsupported.body.contains("this page does not do that"))
            #expect(try await browser.get("/_screen/refuse/input").status == .badRequest)
            #expect(try await browser.get("/refuse/broken").status == .internalServerError)
            #expect(try await browser.get("/refuse/fine").status == .ok)
        }
    }

    @Test("reloading the page on top does not build it again; the route below is the browser's Back")
    func reloadAndBrowserBack() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            _ = try await browser.post("/_action", [("_route", "main"), ("_action", "go")])
            _ = try await browser.get("/other")
            _ = try await browser.get("/other")
            let session = try #require(harness.server.responder.sessions.existing(browser.cookie))
            #expect(session.navigation.current?.backStack == ["main"])
            let back = try await browser.get("/main")
            #expect(back.body.contains("Main page"))
            #expect(session.navigation.current?.backStack == [])
        }
    }

    @Test("GET /_screen/<route> answers the Screen JSON, as den render --json prints it")
    func screenJSON() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            let page = try await browser.get("/_screen/main")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "application/json")
            let screen = try WireFormat.decode(Screen.self, from: Data(page.body.utf8))
            #expect(screen.title == "Main page")
            #expect(try await browser.get("/_screen/nothing/here").status == .notFound)
        }
    }

    @Test("GET /_health answers ok with the number of modules, without making a session")
    func health() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let page = try await Browser(client, harness.server).get("/_health")
            #expect(page.status == .ok)
            #expect(page.body == "{\"status\":\"ok\",\"modules\":2}")
            #expect(page.setCookie == nil)
            #expect(harness.server.responder.sessions.count == 0)
        }
    }

    @Test("the stylesheet and script are served with long cache headers")
    func assets() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            let css = try await browser.get("/_assets/den.css")
            #expect(css.status == .ok)
            #expect(css.headers[.contentType] == "text/css; charset=utf-8")
            #expect(css.headers[.cacheControl] == "public, max-age=31536000")
            let js = try await browser.get("/_assets/den.js")
            #expect(js.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(js.headers[.cacheControl] == "public, max-age=31536000")
        }
    }

    @Test("security headers are on every response: pages, errors, redirects, assets")
    func securityHeaders() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            let pages = [try await browser.get("/main"), try await browser.get("/nope"), try await browser.get("/_assets/den.css"),
                         try await browser.post("/_action", [("_route", "main"), ("_action", "go")]),
                         try await browser.post("/_action", [("_csrf", "wrong")]),
                         try await browser.send("/main", method: .put, headers: [:], body: nil)]
            for page in pages {
                #expect(page.headers[.contentSecurityPolicy] == "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
                #expect(page.headers[.xContentTypeOptions] == "nosniff")
                #expect(page.headers[.referrerPolicy] == "no-referrer")
                #expect(page.headers[.xFrameOptions] == "DENY")
                #expect(page.headers[.cacheControl] != nil)
            }
            #expect(pages[0].headers[.cacheControl] == "no-store")
            #expect(pages[5].status == .methodNotAllowed)
        }
    }

    @Test("a route no module serves (/favicon.ico) is a 404 that makes no session and leaves the visitor's screen alone")
    func unservedRouteLeavesSessionAlone() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let stranger = Browser(client, harness.server)
            let icon = try await stranger.get("/favicon.ico")
            #expect(icon.status == .notFound)
            #expect(icon.setCookie == nil)
            #expect(harness.server.responder.sessions.count == 0)

            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            #expect(try await browser.get("/favicon.ico").status == .notFound)
            let current = harness.server.responder.sessions.existing(browser.cookie)?.navigation.current?.route
            #expect(current == "main", "the 404 did not land on the session's stack")
        }
    }

    @Test("the home page ignores a query string (a shared link's ?utm_source=…)")
    func homeWithQuery() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let page = try await Browser(client, harness.server).get("/?utm_source=x")
            #expect(page.status != .notFound, "\(page.body)")
        }
    }

    @Test("HEAD answers for /_health and the assets with the headers GET sends (Content-Length too) and no body, over a real socket; a page still refuses it")
    func head() async throws {
        let harness = try WebHarness()
        try await harness.server.makeApplication().test(.live) { client in
            let browser = Browser(client, harness.server)
            for path in ["/_health", "/_assets/den.css", "/_assets/den.js"] {
                let get = try await browser.send(path, method: .get, headers: [:], body: nil)
                let head = try await browser.send(path, method: .head, headers: [:], body: nil)
                #expect(head.status == .ok, "\(path)")
                #expect(head.body.isEmpty, "\(path)")
                #expect(head.headers[.contentLength] == String(get.body.utf8.count), "\(path): \(head.headers)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(path)")
                #expect(head.headers[.xContentTypeOptions] == "nosniff", "\(path)")
            }
            #expect(try await browser.send("/about", method: .head, headers: [:], body: nil).status == .methodNotAllowed)
        }
    }
}
