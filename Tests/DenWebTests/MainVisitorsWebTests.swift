@testable import DenHost
import DenTestSupport
@testable import DenWeb
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Main's converter in den serve: what one visitor typed is theirs alone.
@Suite("Main in the browser: each visitor's values")
struct MainVisitorsWebTests {
    private static func convert(_ browser: Browser, amount: String) async throws {
        _ = try await browser.get("/main")
        let reply = try await browser.post("/_action", [("_route", "main"), ("_action", "convert"), ("f.from", "USD"), ("f.to", "JPY"),
                                                        ("f.amount", amount)])
        #expect(reply.status == .seeOther)
        #expect(try await browser.get("/main").body.contains(amount), "the visitor's own form keeps \(amount)")
    }

    @Test("one visitor's conversion never reaches another visitor's form; a login brings the account's own")
    func visitorsApart() async throws {
        let harness = try WebHarness(plugins: ["MainModule", "LoginModule"], testModules: false)
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        try await harness.test { client in
            let first = Browser(client, harness.server)
            try await Self.convert(first, amount: "4242")
            let stranger = Browser(client, harness.server)
            let page = try await stranger.get("/main")
            #expect(page.status == .ok)
            #expect(!page.body.contains("4242"), "a new visitor sees the default, not another visitor's amount")

            // Logged in, the account keeps its own, on any browser it logs in from.
            _ = try await stranger.get("/login?next=main")
            let login = try await stranger.post("/_action", [("_route", "login?next=main"), ("_action", "log-in"),
                                                             ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
            #expect(login.location == "/main", "\(login.status) \(login.location ?? "")")
            try await Self.convert(stranger, amount: "777")
            let laptop = Browser(client, harness.server)
            _ = try await laptop.get("/login?next=main")
            _ = try await laptop.post("/_action", [("_route", "login?next=main"), ("_action", "log-in"),
                                                   ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
            // A builder reads the last conversion: a fresh screen of main on the laptop.
            let reopened = try await laptop.get("/main?fresh=1")
            #expect(reopened.body.contains("777"), "the account's own conversion on its other browser")
            #expect(!reopened.body.contains("4242"))
            #expect(try await first.get("/main").body.contains("4242"), "the first visitor still has theirs")
        }
    }
}
