import DenTestSupport
import Foundation
import Synchronization
import Testing

/// `den serve --isolate <module>` with real processes: a module's worker crashes again and again
/// while other browser sessions use another module, and every one of their requests succeeds.
/// Run with the C fault module (Tests/Fixtures/DenFixtureFaults) and with the Swift one
/// (Tests/SwiftFaultsFixture), whose faults are Swift's own: fatalError, an index out of range,
/// a nil force-unwrap, runaway allocation, an endless loop.
@Suite("den serve with an isolated module: crashes hurt nothing else", .serialized)
struct IsolationWebTests {
    /// A fault module and two of its faults (a third crash would quarantine the file).
    struct Faults: Sendable, CustomTestStringConvertible {
        var library: String
        var module: String
        var faults: [String]
        /// `--call-timeout`, for a fault that never returns.
        var callLimit: String?
        var testDescription: String { "\(module): \(faults.joined(separator: ", "))" }
    }

    static let modules = [
        Faults(library: "DenFixtureFaults", module: "faults", faults: ["segv", "abort"]),
        Faults(library: "DenFixtureSwiftFaults", module: "swift-faults", faults: ["fatal", "index"]),
        Faults(library: "DenFixtureSwiftFaults", module: "swift-faults", faults: ["unwrap", "memory"]),
        Faults(library: "DenFixtureSwiftFaults", module: "swift-faults", faults: ["loop"], callLimit: "2"),
    ]

    @Test("while one visitor crashes the isolated module, four sessions keep reading About; nobody is logged out, state comes back",
          arguments: modules)
    func crashUnderLoad(_ faulty: Faults) throws {
        let den = try BuildProducts.require(BuildProducts.den)
        let temp = try TemporaryDirectory("den-serve-isolate")
        let plugins = try temp.folder("plugins")
        for library in ["AboutModule", faulty.library] {
            _ = try temp.copy(try BuildProducts.require(BuildProducts.library(library)), into: plugins)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DEN_PLUGIN_PATH"] = ""
        let server = try ServedDen(den, arguments: ["serve", "--port", "0", "--no-default-modules", "--plugin-dir", plugins.path,
                                                    "--isolate", faulty.module, "--data-dir", temp.path("data").path,
                                                    "--cache-dir", temp.path("cache").path]
                                                    + (faulty.callLimit.map { ["--call-timeout", $0] } ?? []), environment: environment)
        defer { server.stop() }
        let port = try #require(server.port, "\(server.printed)")

        // Four sessions reading About on threads of their own, counting every answer.
        let stop = Atomic<Bool>(false)
        let served = Atomic<Int>(0)
        let failed = Mutex<[String]>([])
        let readers = (0..<4).map { _ in
            Thread {
                var cookie: String?
                while !stop.load(ordering: .relaxed) {
                    do {
                        let page = try RawHTTP.get(port: port, "/about", cookie: cookie)
                        cookie = cookie ?? page.sessionCookie
                        if page.status == 200, page.body.contains("About Den") { served.add(1, ordering: .relaxed) }
                        else { failed.withLock { $0.append("status \(page.status)") } }
                    } catch {
                        failed.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        readers.forEach { $0.start() }

        let first = try RawHTTP.get(port: port, "/\(faulty.module)")
        #expect(first.status == 200, "\(first.body.prefix(400))")
        let cookie = try #require(first.sessionCookie)
        let csrf = try #require(first.body.range(of: #"name="_csrf" value=""#).map { String(first.body[$0.upperBound...].prefix { $0 != "\"" }) })
        func press(_ action: String) throws -> RawHTTP.Reply {
            _ = try RawHTTP.post(port: port, "/_action", form: "_csrf=\(csrf)&_route=\(faulty.module)&_action=\(action)", cookie: cookie)
            return try RawHTTP.get(port: port, "/\(faulty.module)", cookie: cookie)
        }
        for _ in 0..<3 { _ = try press("count") }
        // Each crash answered with the banner and the state kept.
        for (crash, count) in zip(faulty.faults, 4...) {
            let servedBefore = served.load(ordering: .relaxed)
            let crashed = try press(crash)
            if faulty.callLimit != nil {
                // The hang held this visitor's request for most of the call limit; About went on meanwhile.
                #expect(served.load(ordering: .relaxed) > servedBefore, "About answered while \(crash) hung")
            }
            #expect(crashed.status == 200)
            #expect(crashed.body.contains("crashed while handling the event"), "\(crashed.body.prefix(2000))")
            // After a hang the call limit is near: the screen comes back at the next step instead.
            #expect(crashed.body.contains(faulty.callLimit == nil ? "restored this screen from its last snapshot"
                                                                 : "restores this screen from its last snapshot at your next step"))
            let counted = try press("count")
            #expect(counted.body.contains("count \(count)"), "the state before the crash, plus one: \(counted.body.prefix(2000))")
        }
        let before = served.load(ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.5)
        stop.store(true, ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(failed.withLock { $0 }.isEmpty, "\(failed.withLock { $0.prefix(5) })")
        #expect(served.load(ordering: .relaxed) > before, "About kept answering after the crashes")
        #expect(served.load(ordering: .relaxed) >= 20, "\(served.load(ordering: .relaxed)) About pages served")
        #expect(server.process.isRunning, "den is still up")
    }
}
