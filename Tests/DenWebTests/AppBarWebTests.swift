@testable import DenHost
@testable import DenWeb
import DenKit
import DenWebPages
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The app bar on every page: the loaded modules' navigation entries, the account, the app's
/// name; Log out as a form post; Back named by the screen's title.
@Suite("The app bar in den serve, with the bundled modules")
struct AppBarWebTests {
    static let modules = ["AboutModule", "MainModule", "LoginModule", "JogsModule"]

    /// The `<nav>` element of a page.
    static func nav(_ body: String) -> String {
        guard let start = body.range(of: "<nav"), let end = body.range(of: "</nav>", range: start.upperBound..<body.endIndex) else { return "" }
        return String(body[start.lowerBound..<end.upperBound])
    }

    @Test("every page lists the modules' entries in order, marks where it is and that Jogs needs a login")
    func entries() async throws {
        let harness = try WebHarness(plugins: Self.modules, testModules: false)
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            let about = try await browser.get("/about")
            #expect(about.status == .ok)
            let nav = Self.nav(about.body)
            let converter = try #require(nav.range(of: #"href="/main""#)), jogs = try #require(nav.range(of: #"href="/jogs""#))
            let aboutLink = try #require(nav.range(of: #"href="/about""#))
            #expect(converter.lowerBound < jogs.lowerBound && jogs.lowerBound < aboutLink.lowerBound, "order 10, 20, 90: \(nav)")
            #expect(nav.contains(#"<a href="/about" aria-current="page">About</a>"#), "\(nav)")
            #expect(nav.contains("Jogs<span class=\"den-nav-login\"> (log in)</span>"), "\(nav)")
            #expect(nav.contains(#"<a href="/login">Log in</a>"#), "\(nav)")
            #expect(!nav.contains("Log out"))
            // Every module's page carries it, the current entry marked.
            #expect(Self.nav(try await browser.get("/main").body).contains(#"<a href="/main" aria-current="page">Converter</a>"#))
        }
    }

    @Test("logged in: the user's name, Change password, and Log out, which ends the login from any page")
    func account() async throws {
        let harness = try WebHarness(plugins: Self.modules, testModules: false)
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/login")
            let login = try await browser.post("/_action", [("_route", "login"), ("_action", "log-in"),
                                                            ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
            #expect(login.status == .seeOther)
            let jogs = try await browser.get("/jogs")
            #expect(jogs.status == .ok)
            let nav = Self.nav(jogs.body)
            #expect(nav.contains("Logged in as </span>alice"), "\(nav)")
            #expect(nav.contains(#"<a href="/login/password">Change password</a>"#), "\(nav)")
            #expect(nav.contains(#"action="/_logout""#))
            #expect(!nav.contains("(log in)"))

            let logout = try await browser.post(FormNames.logoutPath, [("_route", "jogs")])
            #expect(logout.status == .seeOther)
            let after = try await browser.get(logout.location ?? "/")
            #expect(after.body.contains("alice is logged out."), "\(after.body)")
            #expect(try await browser.get("/jogs").location == "/login?next=jogs", "jogs asks to log in again")
            // Without the page's token nothing happens.
            #expect(try await browser.post(FormNames.logoutPath, [("_route", "jogs")], csrf: false).status == .forbidden)
        }
    }

    @Test("Back says where it goes by the screen's title, not its route")
    func backByTitle() async throws {
        let harness = try WebHarness(plugins: Self.modules, testModules: false)
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            let jogs = try await browser.get("/jogs")
            let login = try await browser.get(jogs.location ?? "/")
            #expect(login.body.contains(#"<span class="den-back-to">to Currency converter</span>"#), "\(login.body)")
            #expect(!login.body.contains("<code>main</code>"))
        }
    }

    @Test("the app's name from the den.app setting is the header's and the title's")
    func appName() async throws {
        let harness = try WebHarness(plugins: Self.modules, testModules: false)
        let request = try WireFormat.encode(StorageSetRequest(key: ModuleSettings.key("name"), value: "Jog <Club>"))
        _ = harness.runtime.services.call(StorageSetRequest.operation, request: request,
                                          caller: ServiceCaller(moduleID: AppSettingDefinitions.namespace))
        try await harness.test { client in
            let page = try await Browser(client, harness.server).get("/about")
            #expect(page.body.contains(#"<a class="den-home" href="/">Jog &lt;Club&gt;</a>"#), "\(page.body)")
            #expect(page.body.contains("· Jog &lt;Club&gt;</title>"))
        }
    }
}
