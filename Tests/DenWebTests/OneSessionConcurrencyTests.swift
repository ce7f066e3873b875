import DenAccounts
@testable import DenHost
import DenTestSupport
@testable import DenWeb
import DenWebPages
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// Many requests in flight on one logged-in browser session, as tabs, double clicks and retries
/// make them: the login must hold through all of them.
@Suite("One logged-in session, many requests at once")
struct OneSessionConcurrencyTests {
    final class Tallies: Sendable {
        let tally = Mutex(Tally())
        func withLock<T: Sendable>(_ body: (inout sending Tally) -> sending T) -> T { tally.withLock(body) }
    }

    /// What the tabs saw.
    struct Tally: Sendable {
        var answers = 0
        var busy = 0
        var newCookies: [String] = []
        var loggedOut: [String] = []
        var unexpected: [String] = []
        var savedJogs: Set<String> = []
    }

    // Throughput is not asserted: the test process's other suites share its threads (on two
    // cores a blocking suite can hold them for seconds), and speed lives in the benchmarks.
    @Test("32 tabs of one logged-in browser, GETs and form posts for several seconds: no logout, no new cookie, every acknowledged save kept")
    func thirtyTwoTabs() async throws {
        let seconds = Double(ProcessInfo.processInfo.environment["DEN_CONCURRENCY_SECONDS"] ?? "") ?? 6
        let harness = try WebHarness(plugins: ["LoginModule", "JogsModule"])
        _ = try harness.runtime.accounts.register(username: "alice", password: "Sesame-Opens-42")
        try await harness.test { client in
            let first = Browser(client, harness.server)
            _ = try await first.get("/login?next=jogs")
            let login = try await first.post("/_action", [("_route", "login?next=jogs"), ("_action", "log-in"),
                                                          ("f.username", "alice"), ("f.password", "Sesame-Opens-42")])
            try #require(login.location == "/jogs", "logged in")
            let cookie = try #require(first.cookie)
            let csrf = first.csrf
            let tally = Tallies()
            let server = harness.server
            let deadline = Date().addingTimeInterval(seconds)
            await withTaskGroup(of: Void.self) { group in
                for tab in 0..<32 {
                    group.addTask {
                        let browser = Browser(client, server)
                        var round = 0
                        repeat {
                            round += 1
                            let page: Page
                            let what: String
                            do {
                                if tab % 4 == 0, round % 3 == 1 {
                                    what = "POST save"
                                    browser.cookie = cookie
                                    page = try await browser.post("/_action", [
                                        (FormNames.csrf, csrf), ("_route", "jogs/new"), ("_action", "save"), ("f.date", "2026-11-20"),
                                        ("f.distance", "\(tab).\(round % 10)"), ("f.duration", "40:00"),
                                    ], csrf: false)
                                } else {
                                    what = round % 2 == 0 ? "GET /jogs/new" : "GET /jogs"
                                    browser.cookie = cookie
                                    page = try await browser.get(round % 2 == 0 ? "/jogs/new" : "/jogs")
                                }
                            } catch {
                                tally.withLock { $0.unexpected.append("tab \(tab): \(error)") }
                                continue
                            }
                            tally.withLock { tally in
                                tally.answers += 1
                                if let set = page.setCookie, set.hasPrefix("\(DenWebResponder.cookieName)=") {
                                    tally.newCookies.append("\(what) → \(set.prefix(40))")
                                }
                                if page.location?.hasPrefix("/login") == true { tally.loggedOut.append("\(what) → \(page.location!)") }
                                switch page.status {
                                case .ok: break
                                case .seeOther:
                                    if what == "POST save", let location = page.location, location.hasPrefix("/jogs/"),
                                       location != "/jogs/new" {
                                        tally.savedJogs.insert(String(location.dropFirst("/jogs/".count)))
                                    }
                                case .tooManyRequests where page.body.contains("Still working"):
                                    tally.busy += 1
                                default:
                                    tally.unexpected.append("\(what) → \(page.status.code) \(page.location ?? "")")
                                }
                            }
                        } while Date() < deadline
                    }
                }
            }
            let seen = tally.withLock { $0 }
            #expect(seen.answers >= 32, "every tab was answered: \(seen.answers) answers, \(seen.busy) of them busy, \(seen.savedJogs.count) saves")
            #expect(seen.loggedOut.isEmpty, "logged out: \(seen.loggedOut.prefix(5)) of \(seen.loggedOut.count)")
            #expect(seen.newCookies.isEmpty, "new cookies: \(seen.newCookies.prefix(5)) of \(seen.newCookies.count)")
            #expect(seen.unexpected.isEmpty, "\(seen.unexpected.prefix(5)) of \(seen.unexpected.count)")
            // Still the same login afterwards, and every jog whose save was answered is there.
            let after = Browser(client, harness.server)
            after.cookie = cookie
            let list = try await after.get("/jogs?page=1")
            #expect(list.status == .ok && list.setCookie == nil, "\(list.status) \(list.location ?? "")")
            let stored = Set(try harness.runtime.storage.list(namespace: "jogs", prefix: "user/alice/jogs/").map(\.key))
            for id in seen.savedJogs {
                #expect(stored.contains("user/alice/jogs/\(id)"), "jog \(id) was acknowledged but is not stored")
            }
        }
    }
}
