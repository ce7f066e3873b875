import DenWebPages
import Testing

@Suite("Route links: a route becomes a path on this server")
struct RouteHrefTests {
    @Test("Routes are already URL-shaped: paths and queries pass through", arguments: [
        ("about", "/about"), ("jogs/3", "/jogs/3"), ("login?next=jogs", "/login?next=jogs"),
        ("convert/12.5/USD/EUR?x=1&y=a+b", "/convert/12.5/USD/EUR?x=1&y=a+b"), ("", "/"),
    ])
    func passThrough(route: String, href: String) {
        #expect(RouteHref.href(for: route) == href)
    }

    @Test("What a URL cannot hold is percent-encoded as UTF-8; valid escapes are kept", arguments: [
        ("a b/ü", "/a%20b/%C3%BC"), ("a%20b", "/a%20b"), ("100%", "/100%25"), ("%zz", "/%25zz"),
        ("say\"<hi>\"", "/say%22%3Chi%3E%22"), ("a#b#c", "/a#b%23c"), ("x\\y", "/x%5Cy"),
    ])
    func encoded(route: String, href: String) {
        #expect(RouteHref.href(for: route) == href)
    }

    @Test("Leading slashes are dropped, so a route can never name another host", arguments: [
        ("/about", "/about"), ("//evil.example/x", "/evil.example/x"), ("///evil.example", "/evil.example"),
        ("/\\evil.example", "/%5Cevil.example"),
    ])
    func staysOnThisHost(route: String, href: String) {
        #expect(RouteHref.href(for: route) == href)
    }

    @Test("A scheme in a route is only a path segment here")
    func schemesArePaths() {
        #expect(RouteHref.href(for: "javascript:alert(1)") == "/javascript:alert(1)")
        #expect(RouteHref.href(for: "https://evil.example") == "/https://evil.example")
    }
}
