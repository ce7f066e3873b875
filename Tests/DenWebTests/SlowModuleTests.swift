@testable import DenWeb
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("A module that hangs")
struct SlowModuleTests {
    @Test("a hanging builder gets an error page naming the module, and other sessions are served meanwhile")
    func hangingBuilder() async throws {
        let harness = try WebHarness(callTimeout: .seconds(3))
        try await harness.test { client in
            let stuck = Browser(client, harness.server), other = Browser(client, harness.server)
            // Order, not a stopwatch: the other session's page must arrive while the hanging
            // call still waits for its limit (3 s), however slow the machine is otherwise.
            let slowAnswered = Flag()
            async let slow = { let page = try await stuck.get("/slow"); slowAnswered.set(); return page }()
            try await Task.sleep(for: .milliseconds(300))
            let page = try await other.get("/main")
            #expect(page.status == .ok)
            #expect(!slowAnswered.isSet, "the other session was served while the hanging call was still waiting")
            let failed = try await slow
            #expect(failed.status == .internalServerError)
            #expect(failed.body.contains("slowpoke"))
            #expect(slowAnswered.isSet)
        }
    }

    /// Set once, read from any thread.
    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    @Test("an action that fails redirects back to its screen, which names the module and the failure")
    func failingAction() async throws {
        let harness = try WebHarness()
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            let boom = try await browser.post("/_action", [("_route", "main"), ("_action", "boom")])
            #expect(boom.location == "/main")
            let page = try await browser.get("/main")
            #expect(page.status == .ok)
            let plain = page.body.replacingOccurrences(of: "&#39;", with: "'")
            #expect(plain.contains("module 'pages'"), "\(page.body)")
            #expect(plain.contains("the boom button always fails"))
            #expect(plain.components(separatedBy: "the boom button always fails").count == 2,
                    "the error is shown once, not as a host error and again as the screen's banner")
        }
    }

    @Test("requests of a session stuck behind a hanging call are bounded: the extra ones get a busy page")
    func queueBound() async throws {
        var web = WebConfiguration()
        web.limits.maxQueuedRequests = 1
        let harness = try WebHarness(web: web, callTimeout: .seconds(2))
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            async let slow = browser.get("/slow")
            try await Task.sleep(for: .milliseconds(300))
            let busy = try await browser.get("/main")
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.body.contains("still waiting"))
            _ = try await slow
            // Once the call was given up, the session works again.
            #expect(try await browser.get("/main").status == .ok)
        }
    }
}
