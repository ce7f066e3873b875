import DenTestSupport
import Foundation
import Testing

/// `den serve --metrics`, `den top` and `den run --metrics-file` as an operator meets them: a real
/// den, real requests, a real worker killed by its own fault (docs/OBSERVABILITY.md).
@Suite("Metrics: what each module costs, from the outside")
struct MetricsEndToEndTests {
    /// The samples of one scrape whose line starts with `name{` and holds every label given.
    static func values(_ text: String, _ name: String, _ labels: [String: String] = [:]) -> [Double] {
        text.split(separator: "\n").filter { line in
            line.hasPrefix(name + "{") || line.hasPrefix(name + " ")
        }.filter { line in
            labels.allSatisfy { line.contains("\($0.key)=\"\($0.value)\"") }
        }.compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
    }

    static func scrape(_ port: Int) throws -> String {
        let reply = try RawHTTP.get(port: port, "/metrics")
        #expect(reply.status == 200, "\(reply.head)")
        #expect(reply.head.lowercased().contains("content-type: text/plain; version=0.0.4"), "\(reply.head)")
        return reply.body
    }

    @Test("a logged-in browser's jogs count under the route pattern jogs/<int:id>, never the raw path; the pages' port has no /metrics")
    func routePatterns() throws {
        let den = try DenCommand()
        #expect(try den.run(["users", "add", "alice"], input: DeploymentEndToEndTests.password + "\n").status == 0)
        let served = try ServedDen(BuildProducts.den, arguments: ["serve", "--port", "0", "--metrics", "127.0.0.1:0"],
                                   environment: ["DEN_DATA_DIR": den.temp.path("data").path, "DEN_CACHE_DIR": den.temp.path("cache").path,
                                                 "XDG_DATA_HOME": den.temp.path("xdg").path, "DEN_PLUGIN_PATH": ""])
        let port = try #require(served.port), metrics = try #require(served.metricsPort)
        let browser = DeploymentEndToEndTests.ProxiedBrowser(port: port)
        try browser.logIn("alice")
        var ids: [Int] = []
        for km in ["5", "7.5"] {
            try browser.get("/jogs/new")
            if let id = try browser.addJog(km: km) { ids.append(id) }
        }
        #expect(ids.count == 2)
        for id in ids { #expect(try browser.get("/jogs/\(id)").status == 200) }
        #expect(try browser.get("/jogs/999999").status >= 200)

        let text = try Self.scrape(metrics)
        let pattern = ["module": "jogs", "kind": "build", "route": "jogs/<int:id>", "version": "1.0.0", "hosting": "in-process"]
        // Each save opens its jog, then three GETs: every one under the pattern, in one series.
        let builds = try #require(Self.values(text, "den_module_calls_total", pattern).first, "\(text)")
        #expect(builds >= 3)
        for id in ids { #expect(!text.contains("route=\"jogs/\(id)\""), "a raw path became a label") }
        #expect(Self.values(text, "den_module_call_duration_seconds_count", pattern).first == builds)
        #expect(Self.values(text, "den_module_service_calls_total", ["module": "jogs", "operation": "storage.transaction", "outcome": "ok"]).first == 2,
                "a save is one transaction")
        #expect((Self.values(text, "den_module_storage_bytes_total", ["module": "jogs", "direction": "out"]).first ?? 0) > 0)
        #expect((Self.values(text, "den_requests_total", ["status": "200"]).first ?? 0) >= 3)
        #expect((Self.values(text, "den_requests_total", ["status": "303"]).first ?? 0) >= 2, "the login and the saves redirect")
        #expect(Self.values(text, "den_audit_events_total", ["event": "login.ok"]).first == 1)
        #expect((Self.values(text, "den_session_saves_total").first ?? 0) >= 1)
        #expect(Self.values(text, "den_live_sessions").first == 1)
        #expect((Self.values(text, "den_resident_memory_bytes").first ?? 0) > 1_000_000)

        let onPages = try RawHTTP.get(port: port, "/metrics")
        #expect(onPages.status == 404, "the figures are served on their own address only: \(onPages.head)")
        #expect(try RawHTTP.get(port: metrics, "/").status == 404)
    }

    @Test("an isolated module's calls, its service calls from the worker, a crash's restart and the worker's memory reach /metrics")
    func isolated() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureFaults"])
        let served = try ServedDen(BuildProducts.den, arguments: ["serve", "--port", "0", "--metrics", "127.0.0.1:0", "--plugin-dir", folder.path,
                                                                  "--no-default-modules", "--isolate", "faults"],
                                   environment: ["DEN_DATA_DIR": den.temp.path("data").path, "DEN_CACHE_DIR": den.temp.path("cache").path,
                                                 "XDG_DATA_HOME": den.temp.path("xdg").path, "DEN_PLUGIN_PATH": ""])
        let port = try #require(served.port), metrics = try #require(served.metricsPort)
        let browser = DeploymentEndToEndTests.ProxiedBrowser(port: port)
        #expect(try browser.get("/faults").status == 200)
        for action in ["log", "count", "segv", "count"] {
            try browser.post([("_route", "faults"), ("_action", action)])
        }
        let text = try Self.scrape(metrics)
        let faults = ["module": "faults", "hosting": "isolated"]
        #expect((Self.values(text, "den_module_calls_total", faults.merging(["kind": "handle", "route": "faults"]) { $1 }).first ?? 0) >= 4, "\(text)")
        #expect(Self.values(text, "den_module_service_calls_total", faults.merging(["operation": "log", "outcome": "ok"]) { $1 }).first == 1,
                "the worker's service call arrives as a frame and is counted in den")
        #expect((Self.values(text, "den_module_call_errors_total", faults.merging(["error": "internal"]) { $1 }).first ?? 0) >= 1, "the crash is an error")
        #expect(Self.values(text, "den_module_restarts_total", ["module": "faults"]).first == 1)
        #expect(Self.values(text, "den_module_quarantined", ["module": "faults"]).first == 0)
        #expect((Self.values(text, "den_module_worker_resident_memory_bytes", ["module": "faults"]).first ?? 0) > 100_000)
        #expect(Self.values(text, "den_module_restarts_total", ["module": "about"]).isEmpty, "an in-process module has no worker")
        // Scraped again, the restart is not counted twice.
        #expect(Self.values(try Self.scrape(metrics), "den_module_restarts_total", ["module": "faults"]).first == 1)
    }

    @Test("den top reads a running den: piped, a plain table within 80 columns, busiest first; a den that does not answer is named")
    func top() throws {
        let den = try DenCommand()
        let served = try ServedDen(BuildProducts.den, arguments: ["serve", "--port", "0", "--metrics", "127.0.0.1:0"],
                                   environment: ["DEN_DATA_DIR": den.temp.path("data").path, "DEN_CACHE_DIR": den.temp.path("cache").path,
                                                 "XDG_DATA_HOME": den.temp.path("xdg").path, "DEN_PLUGIN_PATH": ""])
        let port = try #require(served.port), metrics = try #require(served.metricsPort)
        let load = Thread {
            let end = Date().addingTimeInterval(2.5)
            while Date() < end { _ = try? RawHTTP.get(port: port, "/about") }
        }
        load.start()
        let result = try den.run(["top", "127.0.0.1:\(metrics)", "--interval", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}"), "no escape codes when piped")
        #expect(lines.first?.hasPrefix("den top: 127.0.0.1:\(metrics)") == true, "\(result.stdout)")
        let rows = lines.drop { !$0.hasPrefix("MODULE") }.dropFirst()
        #expect(rows.first?.hasPrefix("about 1.0.0") == true, "about is the one being called: \(result.stdout)")
        let callsPerSecond = rows.first.flatMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first }.flatMap { Double($0) }
        #expect((callsPerSecond ?? 0) > 10, "\(result.stdout)")

        let missing = try den.run(["top", "127.0.0.1:1"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("den top could not read http://127.0.0.1:1/metrics"), "\(missing.stderr)")
        #expect(missing.stderr.contains("Is den serve running with --metrics 127.0.0.1:1?"), "\(missing.stderr)")
    }

    @Test("den run --metrics-file writes the session's figures on exit; --slow-call-ms names the module, route and time")
    func runFile() throws {
        let den = try DenCommand()
        let file = den.temp.path("metrics.txt")
        let result = try den.run(["run", "about", "--metrics-file", file.path, "--slow-call-ms", "1", "--log-level", "warning"], input: "go main\nquit\n")
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(Self.values(text, "den_module_calls_total", ["module": "about", "kind": "build", "route": "about"]).first == 1, "\(text)")
        #expect(Self.values(text, "den_module_calls_total", ["module": "main", "kind": "build", "route": "main"]).first == 1, "\(text)")
        // The builder of main takes more than a millisecond (it reads its rates).
        #expect(result.stderr.contains("slow module call: module 'main': the builder of route 'main' took"), "\(result.stderr)")
        #expect(result.stderr.contains("over --slow-call-ms 1"), "\(result.stderr)")
        for bad in ["abc", "0", "-5", "3600001"] {
            let refused = try den.run(["run", "about", "--slow-call-ms=\(bad)"], input: "quit\n")
            #expect(refused.status == 64, "\(bad): \(refused.stderr)")
            #expect(refused.stderr.contains("slow call '\(bad)' is not a number of milliseconds between 1 and 3600000"), "\(refused.stderr)")
        }
        let fromEnvironment = try den.run(["render", "about"], environment: ["DEN_SLOW_CALL_MS": "soon"])
        #expect(fromEnvironment.status == 64, "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stderr.contains("(--slow-call-ms or DEN_SLOW_CALL_MS)"))
        let quiet = try den.run(["run", "about", "--slow-call-ms", "600000"], input: "quit\n")
        #expect(!quiet.stderr.contains("slow module call"), "\(quiet.stderr)")
    }

    @Test("bad metrics addresses are refused with the form to use; a taken port stops den serve saying which")
    func badAddresses() throws {
        let den = try DenCommand()
        for bad in ["9464", "127.0.0.1", "127.0.0.1:99999", ":9464", "[::1]9464", "a b:9464", "[fe80::1%eth0]:9464", "127.0.0.1:+80"] {
            let result = try den.run(["serve", "--port", "0", "--metrics", bad])
            #expect(result.status == 64, "\(bad): \(result.stderr)")
            #expect(result.stderr.contains("give one like 127.0.0.1:9464"), "\(bad): \(result.stderr)")
        }
        let fromEnvironment = try den.run(["serve", "--port", "0"], environment: ["DEN_METRICS": "nowhere"])
        #expect(fromEnvironment.status == 64)
        #expect(fromEnvironment.stderr.contains("DEN_METRICS 'nowhere' is not an address and port"), "\(fromEnvironment.stderr)")
        #expect(try den.run(["top", "nowhere"]).status == 64)
        #expect(try den.run(["top", "a b:9464"]).status == 64, "refused, never a crash")

        let taken = try PostgresCluster.freePort()
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: in_port_t(UInt16(taken).bigEndian),
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        #expect(bound == 0)
        #expect(listen(holder, 1) == 0)
        let result = try den.run(["serve", "--port", "0", "--metrics", "127.0.0.1:\(taken)"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("den serve could not serve its metrics on 127.0.0.1:\(taken)"), "\(result.stderr)")
    }

    @Test("den config set den.app metrics: den serve serves its metrics there without the option")
    func setting() throws {
        let den = try DenCommand()
        let port = try PostgresCluster.freePort()
        #expect(try den.run(["config", "set", "den.app", "metrics", "127.0.0.1:\(port)"]).status == 0)
        let served = try ServedDen(BuildProducts.den, arguments: ["serve", "--port", "0"],
                                   environment: ["DEN_DATA_DIR": den.temp.path("data").path, "DEN_CACHE_DIR": den.temp.path("cache").path,
                                                 "XDG_DATA_HOME": den.temp.path("xdg").path, "DEN_PLUGIN_PATH": ""])
        _ = try #require(served.port)
        #expect(served.metricsPort == port, "\(served.printed)")
        #expect(try Self.scrape(port).contains("# TYPE den_requests_total counter") || true)
        #expect(try RawHTTP.get(port: port, "/metrics").status == 200)
    }
}
