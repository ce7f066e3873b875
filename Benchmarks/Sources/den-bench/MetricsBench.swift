import Foundation

/// Figure 6m: what `den serve --metrics` costs. Two dens side by side, the same build and the
/// same seeding, one with `--metrics 127.0.0.1:0` and one without, measured by wrk in alternating
/// rounds on figure 6's page (`GET /about`, 32 sessions in turn) and figure 10's (`GET /jogs` of a
/// logged-in user with 50 jogs, 32 sessions in turn). The figure is metrics on / metrics off,
/// the median round. At the end the measured den's /metrics must show the requests it counted.
struct MetricsBench {
    var denPath: String
    var wrkPath: String
    var seconds: Int
    var rounds: Int
    var connections: Int
    var workDirectory: URL
    /// What the measured den adds: `--metrics` here; figure 6t (TracingBench) passes `--otlp-endpoint`.
    var onArguments = ["--metrics", "127.0.0.1:0"]
    var measuresMetrics: Bool { onArguments.contains("--metrics") }

    struct Page {
        var on: MonolithBench.Figure?
        var off: MonolithBench.Figure?
        var ratio: Double?
        var ratios: [Double] = []
    }

    struct Result {
        var about = Page()
        var list = Page()
        var counted: Double?
        var failures: [String] = []
    }

    func run() throws -> Result {
        var result = Result()
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        // A MonolithBench only for its wrk runner, its Lua scripts and its den pages.
        let runner = MonolithBench(denPath: denPath, monolithPath: "", wrkPath: wrkPath, seconds: seconds, rounds: rounds,
                                   connections: connections, workDirectory: workDirectory)
        var servers: [Process] = []
        defer {
            for server in servers {
                server.terminate()
                server.waitUntilExit()
            }
        }
        var apps: [String: (app: MonolithBench.App, metricsPort: Int?)] = [:]
        for name in ["off", "on"] {
            let den = Process()
            den.executableURL = URL(fileURLWithPath: denPath)
            den.arguments = ["serve", "--port", "0", "--plugins", "about,login,jogs", "--max-sessions-per-account", "64"]
                + (name == "on" ? onArguments : [])
            var environment = ProcessInfo.processInfo.environment
            environment["DEN_CACHE_DIR"] = workDirectory.appendingPathComponent("\(name)-cache").path
            environment["DEN_DATA_DIR"] = workDirectory.appendingPathComponent("\(name)-data").path
            environment["XDG_DATA_HOME"] = workDirectory.appendingPathComponent("\(name)-xdg").path
            environment.removeValue(forKey: "DEN_PLUGIN_PATH")
            environment.removeValue(forKey: "DEN_METRICS")
            den.environment = environment
            let output = Pipe()
            den.standardOutput = output
            den.standardError = FileHandle.nullDevice
            try den.run()
            servers.append(den)
            // The metrics line and the pages' line come in either order.
            var printed = ""
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, !(printed.contains("serving on") && (name == "off" || !measuresMetrics || printed.contains("metrics on"))) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                printed += String(decoding: chunk, as: UTF8.self)
            }
            func printedPort(after label: String) -> Int? {
                guard let range = printed.range(of: label + #" http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else { return nil }
                return Int(printed[range].split(separator: ":").last ?? "")
            }
            guard let port = printedPort(after: "serving on") else {
                result.failures.append("den serve (metrics \(name)) printed no address: \(printed)")
                return result
            }
            apps[name] = (MonolithBench.App(kind: .den, port: port, pid: den.processIdentifier), printedPort(after: "metrics on"))
        }
        var scripts: [String: URL] = [:]
        do {
            for (name, entry) in apps {
                let app = entry.app
                let runner = try app.register("runner")
                for jog in MonolithBench.seedJogs() { try app.addJog(runner, date: jog.date, distance: jog.distance, duration: jog.duration) }
                let listCookies = try (0..<MonolithBench.listSessions).map { _ in try app.logIn("runner").cookies }
                let aboutCookies = (0..<MonolithBench.listSessions).compactMap { _ in WebBench.sessionCookie("http://127.0.0.1:\(app.port)/about") }
                guard aboutCookies.count == MonolithBench.listSessions else { throw LoopbackHTTP.Failure(description: "GET /about set no session cookie") }
                scripts["list-\(name)"] = try script("list-\(name)", WebBench.rotationScript(listCookies))
                scripts["about-\(name)"] = try script("about-\(name)", WebBench.rotationScript(aboutCookies))
            }
        } catch {
            result.failures.append("setup: \(error)")
            return result
        }
        func measure(_ page: String, _ name: String, seconds: Int) throws -> MonolithBench.Figure {
            let app = apps[name]!.app
            let figure = try runner.wrk("http://127.0.0.1:\(app.port)/\(page == "list" ? "jogs" : "about")", script: scripts["\(page)-\(name)"]!, seconds: seconds)
            if figure.non2xx > 0 { result.failures.append("metrics \(name) \(page): \(figure.non2xx) answers were 4xx or 5xx") }
            return figure
        }
        for page in ["about", "list"] { for name in ["off", "on"] { _ = try measure(page, name, seconds: 2) } }
        var measured: [String: [(on: MonolithBench.Figure, off: MonolithBench.Figure)]] = [:]
        for round in 0..<max(rounds, 1) {
            for page in ["about", "list"] {
                let order = round % 2 == 0 ? ["off", "on"] : ["on", "off"]
                var figures: [String: MonolithBench.Figure] = [:]
                for name in order { figures[name] = try measure(page, name, seconds: seconds) }
                measured[page, default: []].append((figures["on"]!, figures["off"]!))
            }
        }
        for (page, keyPath) in [("about", \Result.about), ("list", \Result.list)] {
            let pairs = measured[page] ?? []
            guard !pairs.isEmpty else { continue }
            let ratio = { (pair: (on: MonolithBench.Figure, off: MonolithBench.Figure)) in pair.on.requestsPerSecond / pair.off.requestsPerSecond }
            let median = pairs.sorted { ratio($0) < ratio($1) }[pairs.count / 2]
            result[keyPath: keyPath] = Page(on: median.on, off: median.off, ratio: ratio(median), ratios: pairs.map(ratio))
        }
        guard measuresMetrics else { return result }
        // The measured den did count what it served.
        if let port = apps["on"]?.metricsPort, let text = try? LoopbackHTTP.get(port, "/metrics").body {
            result.counted = text.split(separator: "\n").filter { $0.hasPrefix("den_requests_total{") }
                .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0, +)
        }
        if (result.counted ?? 0) == 0 { result.failures.append("the den with --metrics counted no requests at /metrics") }
        return result
    }

    private func script(_ name: String, _ text: String) throws -> URL {
        let url = workDirectory.appendingPathComponent(name + ".lua")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}
