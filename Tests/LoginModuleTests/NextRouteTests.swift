import Foundation
import Testing
@testable import LoginModule

@Suite("next: where a login goes on to")
struct NextRouteTests {
    @Test("a plain route of the app is accepted as it is", arguments: [
        "jogs", "jogs/42", "jogs?sort=date&n=5", "convert/12.5/usd/eur", "notes/caf%C3%A9", "notes/café",
        "login/password", "login/password?next=jogs", "main",
    ])
    func accepted(route: String) throws {
        #expect(try NextRoute.parse(route) == NextRoute(trusted: route))
    }

    @Test("a missing or empty next means: go on to main")
    func missing() throws {
        #expect(try NextRoute.parse(nil) == nil)
        #expect(try NextRoute.parse("") == nil)
        #expect(NextRoute.fallback == "main")
    }

    @Test("anything but a plain route is refused, saying why", arguments: [
        ("https://evil.example/login", "scheme"),
        ("javascript:alert(1)", "scheme"),
        ("mailto:someone@example.org", "scheme"),
        ("//evil.example", "start with '/'"),
        ("/etc/passwd", "start with '/'"),
        ("jogs/../admin", "'..'"),
        ("jogs/%2e%2E/admin", "'..'"),
        ("./jogs", "'..'"),
        ("jogs//42", "empty path segment"),
        ("jogs/", "empty path segment"),
        ("jogs 42", "space"),
        ("jogs\n", "control character"),
        ("jogs\u{200B}", "control character"),
        ("jogs#top", "'#'"),
        ("jogs\\42", "'\\'"),
        ("<script>", "'<'"),
        ("100%", "'%'"),
        ("jogs/%zz", "'%'"),
        ("?next=jogs", "no path"),
        (String(repeating: "a", count: 2049), "longer than a route"),
    ])
    func refused(raw: String, reason: String) {
        #expect {
            _ = try NextRoute.parse(raw)
        } throws: { error in
            guard case .notARoute(let why) = error as? NextRoute.Problem else { return false }
            return why.contains(reason)
        }
    }

    @Test("a page of the login form itself is refused, in any spelling; login/password is not",
          arguments: ["login", "LOGIN", "Login?next=jogs", "login/register", "login/reset?next=jogs", "%6Cogin", "login/anything"])
    func loginForm(raw: String) {
        #expect(throws: NextRoute.Problem.loginForm) { try NextRoute.parse(raw) }
    }

    @Test("a route of exactly 2048 bytes is still a route")
    func atTheLimit() throws {
        let route = String(repeating: "a", count: 2048)
        #expect(try NextRoute.parse(route)?.route == route)
    }

    @Test("a carried next survives the round trip through a login page's query")
    func roundTrip() throws {
        let original = "jogs/42?sort=date&n=5&q=a%20b+c"
        let parsed = try NextRoute.parse(original)
        #expect(parsed != nil)
        let route = LoginRoutes.route(for: .register, next: parsed)
        let value = try #require(route.split(separator: "=", maxSplits: 1).last)
        // The host decodes a query value once (and reads '+' as a space, which encoding avoids).
        #expect(!value.contains("+") && !value.contains("&") && !value.contains("/"))
        #expect(String(value).removingPercentEncoding == original)
    }
}
