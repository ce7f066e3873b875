import CDenLibraries
import DenLibraryClients
import DenLibraryContracts
import DenTestSupport
import Foundation
import Testing

@Suite("The http service's transport library, loaded on first use")
struct HTTPTransportSpec {
    @Test("a missing transport library is a clear service failure, not a crash")
    func missingLibrary() throws {
        let transport = HTTPTransport(library: URL(fileURLWithPath: "/nonexistent/libDenHTTPTransport.so"))
        #expect {
            try transport.get(TransportRequest(url: "http://127.0.0.1:9/", headers: [:], timeoutMilliseconds: 100, maxBytes: 10))
        } throws: { error in
            let failure = error as? ServiceFailure
            return failure?.kind == .unavailable
                && failure?.message.contains("/nonexistent/libDenHTTPTransport.so") == true
                && failure?.message.contains("Scripts/build.sh") == true
        }
    }

    @Test("a library without the transport function is refused with its path")
    func wrongLibrary() throws {
        let about = try BuildProducts.require(BuildProducts.library("AboutModule"))
        let transport = HTTPTransport(library: about)
        #expect {
            try transport.get(TransportRequest(url: "http://127.0.0.1:9/", headers: [:], timeoutMilliseconds: 100, maxBytes: 10))
        } throws: { error in
            (error as? ServiceFailure)?.message.contains("does not export den_http_transport_get") == true
        }
    }

    /// The counts a progress callback heard, from the transport's thread.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [Int64] = []
        func add(_ count: Int64) { lock.withLock { counts.append(count) } }
        var all: [Int64] { lock.withLock { counts } }
    }

    func transport(progressSymbol: String = DEN_HTTP_TRANSPORT_GET_PROGRESS) throws -> HTTPTransport {
        HTTPTransport(library: try BuildProducts.require(BuildProducts.library("DenHTTPTransport")), progressSymbol: progressSymbol)
    }

    @Test("progress: the body's bytes as they arrive, rising, the last the whole body")
    func progressWhileArriving() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let heard = Heard()
        // One byte every 100 ms for 1.2 s: counts arrive while the body is still coming.
        let outcome = try transport().get(TransportRequest(url: server.url("/drip?ms=1200"), headers: [:], timeoutMilliseconds: 10_000, maxBytes: 1000),
                                          progress: { heard.add($0) })
        guard case .fetched(200, _, let body) = outcome else { Issue.record("\(outcome)"); return }
        let counts = heard.all
        #expect(counts.count >= 3, "heard during the download, not only at its end: \(counts)")
        #expect(counts == counts.sorted() && Set(counts).count == counts.count, "\(counts)")
        #expect(counts.last == Int64(body.count))
    }

    @Test("progress is throttled: a fast 32 MiB body is heard at most about ten times a second, not per chunk")
    func progressThrottled() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let heard = Heard()
        let size = 32 << 20
        let started = ContinuousClock.now
        let outcome = try transport().get(TransportRequest(url: server.url("/big?bytes=\(size)"), headers: [:], timeoutMilliseconds: 30_000, maxBytes: size),
                                          progress: { heard.add($0) })
        let seconds = Double((ContinuousClock.now - started).components.seconds) + 1
        guard case .fetched(200, _, let body) = outcome else { Issue.record("\(outcome)"); return }
        #expect(body.count == size)
        #expect(heard.all.last == Int64(size))
        #expect(Double(heard.all.count) <= seconds * 10 + 2, "\(heard.all.count) reports in under \(seconds) s")
    }

    @Test("with progress, the limits and failures are the same: over maxBytes is tooLarge, a hang times out, and nothing is heard after the call")
    func progressKeepsLimits() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let transport = try transport()
        let big = TransportRequest(url: server.url("/big?bytes=\(2 << 20)"), headers: [:], timeoutMilliseconds: 10_000, maxBytes: 1 << 20)
        let heard = Heard()
        let tooLarge = try transport.get(big, progress: { heard.add($0) })
        #expect(tooLarge == (try transport.get(big)))
        #expect(tooLarge == .failed(.tooLarge(declared: nil)))
        #expect(heard.all.allSatisfy { $0 <= 1 << 20 }, "never past the limit")

        let declared = TransportRequest(url: server.url("/big-declared?bytes=\(2 << 20)"), headers: [:], timeoutMilliseconds: 10_000, maxBytes: 1 << 20)
        #expect(try transport.get(declared, progress: { heard.add($0) }) == .failed(.tooLarge(declared: 2 << 20)))

        let dripping = Heard()
        let hang = try transport.get(TransportRequest(url: server.url("/drip?ms=5000"), headers: [:], timeoutMilliseconds: 700, maxBytes: 1000),
                                     progress: { dripping.add($0) })
        #expect(hang == .failed(.timedOut))
        let atReturn = dripping.all.count
        #expect(atReturn > 0, "bytes were heard before the deadline")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(dripping.all.count == atReturn, "nothing after the call returned: the caller's context is gone")
    }

    @Test("a transport library without the progress export still fetches; progress hears the whole body once")
    func olderLibrary() throws {
        let server = try StubHTTPServer()
        defer { server.stop() }
        let heard = Heard()
        let older = try transport(progressSymbol: "den_http_transport_get_progress_not_there")
        let outcome = try older.get(TransportRequest(url: server.url("/drip?ms=600"), headers: [:], timeoutMilliseconds: 10_000, maxBytes: 1000),
                                    progress: { heard.add($0) })
        guard case .fetched(200, _, let body) = outcome else { Issue.record("\(outcome)"); return }
        #expect(heard.all == [Int64(body.count)])
    }

    @Test("neither den nor den-commands links FoundationNetworking: it loads on the first fetch", arguments: ["den", "den-commands"])
    func hostDoesNotLinkNetworking(executable: String) throws {
        let file = BuildProducts.directory.appendingPathComponent(executable)
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["ldd", BuildProducts.require(file).path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("libswiftCore"), "ldd listed the libraries")
        #expect(!result.stdout.contains("FoundationNetworking"))
        #expect(!result.stdout.contains("libcurl"))
    }
}
