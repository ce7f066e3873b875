@testable import DenWeb
import DenWebPages
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Form posts: actions, back, live fields, effects")
struct FormPostTests {
    @Test("an action answers 303 to the resulting route (post-redirect-get); navigate, back and replace become redirects")
    func effectsBecomeRedirects() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            let go = try await browser.post("/_action", [("_route", "main"), ("_action", "go")])
            #expect(go.status == .seeOther)
            #expect(go.location == "/other")
            let other = try await browser.get("/other")
            #expect(other.body.contains("Other page"))
            // The module's own `back` effect.
            let leave = try await browser.post("/_action", [("_route", "other"), ("_action", "leave")])
            #expect(leave.location == "/main")
            // replace: `other` takes main's place, so there is nothing to go back to.
            let swap = try await browser.post("/_action", [("_route", "main"), ("_action", "swap")])
            #expect(swap.location == "/other")
            let session = try #require(harness.server.responder.sessions.existing(browser.cookie))
            #expect(session.navigation.current?.backStack == [])
            #expect(harness.probe.received == ["go", "swap"])
        }
    }

    @Test("POST /_back goes back and redirects; at the first screen it stays and says so")
    func back() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            _ = try await browser.post("/_action", [("_route", "main"), ("_action", "go")])
            let back = try await browser.post("/_back", [("_route", "other")])
            #expect(back.status == .seeOther)
            #expect(back.location == "/main")
            let again = try await browser.post("/_back", [("_route", "main")])
            #expect(again.location == "/main")
            let page = try await browser.get("/main")
            #expect(page.body.contains("nothing to go back to"))
        }
    }

    @Test("a route with characters a URL cannot carry is escaped in the Location header")
    func oddRouteRedirect() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            let odd = try await browser.post("/_action", [("_route", "main"), ("_action", "odd")])
            #expect(odd.location == "/odd/caf%C3%A9")
            let page = try await browser.get("/odd/caf%C3%A9")
            #expect(page.status == .ok)
            #expect(page.body.contains("Odd place"))
        }
    }

    @Test("fields reach the module; a field the form left out keeps the screen's value; unknown names are dropped")
    func fields() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            _ = try await browser.post("/_action", [("_route", "main"), ("_action", "echo"), ("f.note", "a & b <c>"), ("f.extra", "x")])
            let page = try await browser.get("/main")
            #expect(page.body.contains("echo: name=Ada,note=a &amp; b &lt;c&gt;"))
        }
    }

    @Test("open_url effects become links on the next page, once; a refused scheme is an error, never a link")
    func openURL() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            let links = try await browser.post("/_action", [("_route", "main"), ("_action", "links")])
            #expect(links.location == "/main")
            let page = try await browser.get("/main")
            #expect(page.body.contains("href=\"https://example.org/docs\""))
            #expect(!page.body.contains("href=\"javascript:"))
            #expect(page.body.contains("scheme &#39;javascript&#39; is not allowed") || page.body.contains("scheme 'javascript' is not allowed"))
            let reload = try await browser.get("/main")
            #expect(!reload.body.contains("href=\"https://example.org/docs\""))
        }
    }

    @Test("POST /_change sends a change event and answers the new <main>")
    func change() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            let page = try await browser.post("/_change", [("_route", "main"), ("_field", "name"), ("f.name", "Grace")])
            #expect(page.status == .ok)
            #expect(page.body.hasPrefix("<main id=\"den-main\""))
            #expect(page.body.contains("live: Grace"))
            #expect(harness.probe.received == ["change:name=Grace"])
            // A field that did not ask for change events gets none.
            let refused = try await browser.post("/_change", [("_route", "main"), ("_field", "note"), ("f.note", "x")])
            #expect(refused.status == .ok)
            #expect(refused.body.contains("no live field"))
            #expect(harness.probe.received == ["change:name=Grace"])
        }
    }

    @Test("a form drawn for a screen no longer on top is not sent; the current screen says why")
    func staleForm() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            _ = try await browser.post("/_action", [("_route", "main"), ("_action", "go")])
            let stale = try await browser.post("/_action", [("_route", "main"), ("_action", "echo")])
            #expect(stale.location == "/other")
            #expect(try await browser.get("/other").body.contains("no longer the screen on top"))
            let missing = try await browser.post("/_action", [("_route", "other"), ("_action", "nope")])
            #expect(missing.location == "/other")
            #expect(try await browser.get("/other").body.contains("no button"))
            #expect(harness.probe.received == ["go"])
        }
    }
}
