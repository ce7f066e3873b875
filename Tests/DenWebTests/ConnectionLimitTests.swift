@testable import DenWeb
import DenTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import HummingbirdTesting
import Testing

/// A client socket that can wait for the server to close it.
private struct ClientSocket {
    let fd: Int32

    init(port: Int) throws {
        fd = try RawHTTP.connect(port)
    }

    func send(_ text: String) { RawHTTP.send(fd, text) }

    /// True once the server has closed the connection (a read of 0 bytes or a reset), false
    /// while it is still open after `seconds`.
    func closedByServer(within seconds: Double) -> Bool {
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0, errno != EAGAIN, errno != EWOULDBLOCK { return true }
        }
        return false
    }

    func close() { Glibc.close(fd) }
}

/// CPU seconds a process has used (user + system), from /proc.
private func cpuSeconds(_ pid: Int32) throws -> Double {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
    // After the name: state is field 3, utime 14, stime 15 (1-based), so 11 and 12 here.
    return (Double(fields[11])! + Double(fields[12])!) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

@Suite("Connections: descriptors, the connection cap, slow heads and bodies")
struct ConnectionLimitTests {
    static func serve(_ temp: TemporaryDirectory, nofile: String, extra: [String] = []) throws -> ServedDen {
        let den = try BuildProducts.require(BuildProducts.den)
        _ = try BuildProducts.require(BuildProducts.library("AboutModule"))
        var environment = ProcessInfo.processInfo.environment
        environment["DEN_PLUGIN_PATH"] = ""
        return try ServedDen(URL(fileURLWithPath: "/usr/bin/prlimit"),
                             arguments: ["--nofile=\(nofile)", den.path, "serve", "--port", "0", "--plugins", "about",
                                         "--data-dir", temp.path("data").path, "--cache-dir", temp.path("cache").path] + extra,
                             environment: environment)
    }

    @Test("den serve raises its soft descriptor limit to the hard limit")
    func raisesSoftLimit() throws {
        let temp = try TemporaryDirectory("den-serve-fd")
        let server = try Self.serve(temp, nofile: "512:2048")
        defer { server.stop() }
        _ = try #require(server.port, "\(server.printed)")
        let limits = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        #expect(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2).map(String.init) == ["2048", "2048"], "\(line)")
    }

    @Test("at the connection cap a new client gets a 503 at once while every place is busy or just taken, and is served again once connections close")
    func capAnswers503() throws {
        let temp = try TemporaryDirectory("den-serve-cap")
        let server = try Self.serve(temp, nofile: "1024:1024", extra: ["--max-connections", "20"])
        defer { server.stop() }
        let port = try #require(server.port, "\(server.printed)")
        #expect(try RawHTTP.get(port: port, "/_health").status == 200)
        // 20 slow clients, each in the middle of a head, hold every place; none has waited long
        // enough to be closed for a newcomer (`ConnectionGauge.evictionAge`).
        var slow = try (0..<20).map { _ in try ClientSocket(port: port) }
        for client in slow { client.send("GET /about HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
        Thread.sleep(forTimeInterval: 0.2)
        let started = Date()
        let refused = try RawHTTP.get(port: port, "/_health")
        #expect(refused.status == 503, "\(refused.head)")
        #expect(refused.head.lowercased().contains("retry-after: 5"))
        #expect(refused.body.contains("too many open connections"))
        #expect(Date().timeIntervalSince(started) < 3)
        // Once some go away, new clients are served again.
        for client in slow.prefix(5) { client.close() }
        slow.removeFirst(5)
        // den notices the closed sockets on its event loop: on a loaded machine that takes a moment.
        var served = false
        let deadline = Date().addingTimeInterval(5)
        while !served, Date() < deadline {
            served = (try? RawHTTP.get(port: port, "/_health").status) == 200
            if !served { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(served, "still refused 5 s after 5 of the 20 slow clients closed")
        for client in slow { client.close() }
    }

    @Test("at the cap, the head that has waited longest is closed to let a new client in: normal clients get through a slowloris")
    func slowlorisAtTheCap() throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 1_400 {
            limit.rlim_cur = min(limit.rlim_max, 4_096)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        let temp = try TemporaryDirectory("den-serve-slowloris")
        // Descriptor limit 1,024: a cap of 768 connections.
        let server = try Self.serve(temp, nofile: "1024:1024")
        defer { server.stop() }
        let port = try #require(server.port, "\(server.printed)")
        // 1,100 connections that each send half a head and then wait, as a slowloris does.
        var slow: [ClientSocket] = []
        for _ in 0..<1_100 {
            guard let client = try? ClientSocket(port: port) else { break }
            client.send("GET /about HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(client)
        }
        defer { for client in slow { client.close() } }
        #expect(slow.count >= 800, "only \(slow.count) connections could be opened")
        Thread.sleep(forTimeInterval: 1.5)
        // Every normal client is answered, each taking the place of the longest waiting head.
        var statuses: [Int] = []
        for _ in 0..<20 {
            statuses.append((try? RawHTTP.get(port: port, "/_health").status) ?? 0)
        }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        // The heads closed for them were the oldest; den still holds the rest, up to its cap.
        let closed = slow.prefix(40).filter { $0.closedByServer(within: 0.05) }.count
        #expect(closed >= 20, "\(closed) of the 40 oldest heads were closed")
        // Oldest first: the last ones admitted under the cap are mostly still held.
        let youngOpen = slow[700..<760].filter { !$0.closedByServer(within: 0.01) }.count
        #expect(youngOpen >= 30, "only \(youngOpen) of 60 younger heads are still open")
    }

    @Test("past the descriptor limit den lowers its cap, says so, keeps answering, and does not spin")
    func descriptorLimitWithoutSpinning() throws {
        let temp = try TemporaryDirectory("den-serve-emfile")
        // Hard limit 400: the cap becomes 400 - 256 = 144; 300 connections are far past it and
        // past the refusals' room, so den stops accepting for a while.
        let server = try Self.serve(temp, nofile: "400:400")
        defer { server.stop() }
        let port = try #require(server.port, "\(server.printed)")
        var clients: [ClientSocket] = []
        for _ in 0..<300 {
            guard let client = try? ClientSocket(port: port) else { break }
            client.send("POST /_action HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 60000\r\n\r\nx")
            clients.append(client)
        }
        defer { for client in clients { client.close() } }
        Thread.sleep(forTimeInterval: 1)
        let pid = server.process.processIdentifier
        let before = try cpuSeconds(pid)
        Thread.sleep(forTimeInterval: 2)
        let used = try cpuSeconds(pid) - before
        #expect(used < 0.5, "den used \(used) s of CPU in 2 s while clients held every connection")
        // The slow posts still hold their places; a new client is answered (503) all the same.
        for client in clients.prefix(100) { client.close() }
        clients.removeFirst(100)
        Thread.sleep(forTimeInterval: 1.5)
        let reply = try RawHTTP.get(port: port, "/_health")
        #expect([200, 503].contains(reply.status), "\(reply.head)")
    }

    @Test("the cap never exceeds the descriptor limit less what den keeps for itself")
    func capArithmetic() {
        #expect(DescriptorBudget.cap(asked: 10_000, softLimit: 1024) == (768, true))
        #expect(DescriptorBudget.cap(asked: 100, softLimit: 1024) == (100, false))
        #expect(DescriptorBudget.cap(asked: 100, softLimit: 100) == (1, true))
        #expect(DescriptorBudget.cap(asked: 100, softLimit: nil) == (100, false))
        let gauge = ConnectionGauge(cap: 2)
        #expect(gauge.take() && gauge.take())
        #expect(!gauge.take())
        gauge.release()
        #expect(gauge.take())
        #expect(gauge.count == 2)
    }

    @Test("a request body sent a byte at a time is cut at the body deadline")
    func slowBodyIsCut() async throws {
        var web = WebConfiguration()
        web.limits.bodyTimeout = .seconds(1)
        let harness = try WebHarness(web: web)
        try await harness.server.makeApplication().test(.live) { client in
            let port = try #require(client.port)
            let socket = try ClientSocket(port: port)
            defer { socket.close() }
            socket.send("POST /_action HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\n")
            let started = Date()
            var closed = false
            // One byte every 0.2 s keeps the idle timeout (60 s) from ever firing: a close well
            // before it is the body deadline's (1 s), however late a loaded machine runs it.
            for _ in 0..<100 where !closed {
                socket.send("a")
                closed = socket.closedByServer(within: 0.2)
            }
            #expect(closed, "the slow body was still being read after 20 s")
            #expect(Date().timeIntervalSince(started) < 30)
        }
    }

    @Test("a request head sent a line at a time is cut at the idle timeout")
    func slowHeadIsCut() async throws {
        var web = WebConfiguration()
        web.limits.idleTimeout = .seconds(1)
        let harness = try WebHarness(web: web)
        try await harness.server.makeApplication().test(.live) { client in
            let port = try #require(client.port)
            let socket = try ClientSocket(port: port)
            defer { socket.close() }
            socket.send("GET /main HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            var closed = false
            for index in 0..<25 where !closed {
                socket.send("X-Slow-\(index): y\r\n")
                closed = socket.closedByServer(within: 0.2)
            }
            #expect(closed, "the slow head was still being read after 5 s")
        }
    }
}
