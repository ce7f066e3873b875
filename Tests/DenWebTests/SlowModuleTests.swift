@testable import DenWeb
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("A module that hangs")
struct SlowModuleTests {
    // Order, not a stopwatch: each test waits until the hanging builder is running and releases
    // it by hand, so a slow or busy machine changes how long they take, not what they see.

    @Test("while a builder hangs, other sessions are served")
    func otherSessionsServed() async throws {
        let harness = try WebHarness(callTimeout: .seconds(120))
        try await harness.test { client in
            let stuck = Browser(client, harness.server), other = Browser(client, harness.server)
            let slowAnswered = Flag()
            async let slow = { let page = try await stuck.get("/slow"); slowAnswered.set(); return page }()
            try await harness.probe.waitForHang()
            let page = try await other.get("/main")
            #expect(page.status == .ok)
            #expect(!slowAnswered.isSet, "the other session was served while the hanging call was still waiting")
            harness.probe.release.signal()
            let released = try await slow
            #expect(released.status == .ok)
            #expect(released.body.contains("Finally"))
        }
    }

    @Test("a builder that hangs past the call limit gets an error page naming the module, and its session works again")
    func hangingBuilderGivenUp() async throws {
        let harness = try WebHarness(callTimeout: .seconds(1))
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            let failed = try await browser.get("/slow")
            #expect(failed.status == .internalServerError)
            #expect(failed.body.contains("slowpoke"))
            #expect(try await browser.get("/main").status == .ok)
        }
    }

    @Test("an action that hangs past the call limit: the request is answered, the screen below comes back naming module and call, the requests queued behind it are served, and the module opens afresh")
    func hangingActionGivenUp() async throws {
        let harness = try WebHarness(callTimeout: .seconds(1))
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            #expect(try await browser.get("/main").status == .ok)
            #expect(try await browser.get("/nap").status == .ok)
            async let hung = browser.post("/_action", [("_route", "nap"), ("_action", "hang")])
            try await harness.probe.waitForHang()
            // Queued behind the hanging step, on the session's stuck queue: served after the limit.
            let queued = try await browser.get("/main")
            let answer = try await hung
            #expect(answer.location == "/main", "back on the screen below the abandoned one")
            #expect(queued.status == .ok)
            let page = try await browser.get("/main")
            #expect(page.status == .ok)
            let plain = (queued.body + page.body).replacingOccurrences(of: "&#39;", with: "'")
            #expect(plain.contains("module 'slowpoke' did not return from handle(action 'hang')"), "\(plain)")
            // The abandoned instance is never called again; the route builds a fresh one.
            let again = try await browser.get("/nap")
            #expect(again.status == .ok)
            #expect(again.body.contains("Nap"))
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
        let harness = try WebHarness(web: web, callTimeout: .seconds(120))
        try await harness.test { client in
            let browser = Browser(client, harness.server)
            _ = try await browser.get("/main")
            async let slow = browser.get("/slow")
            try await harness.probe.waitForHang()
            let busy = try await browser.get("/main")
            #expect(busy.status == .tooManyRequests)
            #expect(busy.body.contains("still waiting"))
            #expect(busy.headers[.retryAfter] == "5")
            harness.probe.release.signal()
            #expect(try await slow.status == .ok)
            // Once the call has answered, the session takes requests again.
            #expect(try await browser.get("/main").status == .ok)
        }
    }
}
