import Foundation

/// Figure 6: `den serve` under load, measured with `wrk` (Debian) against two URLs of the same
/// server in the same run — `GET /about` (a page: the visitor's session, the About screen, the
/// HTML renderer) and `GET /_health` (a bare Hummingbird route: no session, no module) — each
/// for the same time, with the same connections. The two alternate in `rounds` short rounds
/// (which goes first alternates too), and the figure is the median round: on a shared machine
/// a burst of other work then spoils one round, not the whole figure.
///
/// Requests carry the cookies of 32 sessions made up front, in rotation (a wrk Lua script), as
/// many browsers reloading a page do: without a cookie each request would make a new session
/// and measure session creation instead, and with one cookie for every connection the session's
/// own serial queue (one browser's requests run one at a time) would be measured.
struct WebBench {
    var denPath: String
    var wrkPath: String
    /// Seconds of each URL in each round.
    var seconds: Int
    var rounds: Int
    var connections: Int
    var workDirectory: URL

    struct Figure {
        var requestsPerSecond: Double
        var p99Milliseconds: Double
        var non2xx: Int
    }

    struct Result {
        /// The round whose ratio is the median, and that ratio.
        var page: Figure?
        var bare: Figure?
        var ratio: Double?
        /// Every round's ratio, in order.
        var ratios: [Double] = []
        var failures: [String] = []
    }

    func run() throws -> Result {
        var result = Result()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: denPath)
        server.arguments = ["serve", "--port", "0"]
        var environment = ProcessInfo.processInfo.environment
        environment["DEN_CACHE_DIR"] = workDirectory.appendingPathComponent("cache").path
        environment["DEN_DATA_DIR"] = workDirectory.appendingPathComponent("data").path
        environment["XDG_DATA_HOME"] = workDirectory.appendingPathComponent("xdg").path
        environment.removeValue(forKey: "DEN_PLUGIN_PATH")
        server.environment = environment
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        guard let base = Self.readAddress(from: output.fileHandleForReading) else {
            result.failures.append("den serve printed no address")
            return result
        }
        let cookies = (0..<Self.sessions).compactMap { _ in Self.sessionCookie(base + "/about") }
        guard cookies.count == Self.sessions else {
            result.failures.append("GET /about set no den_session cookie")
            return result
        }
        let script = workDirectory.appendingPathComponent("sessions.lua")
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        try Self.rotationScript(cookies).write(to: script, atomically: true, encoding: .utf8)
        // Warm up both, then measure each for the same time.
        for path in ["/about", "/_health"] { _ = try wrk(base + path, script: script, seconds: 2) }
        var measured: [(page: Figure, bare: Figure)] = []
        for round in 0..<max(rounds, 1) {
            let page: Figure, bare: Figure
            if round % 2 == 0 {
                page = try wrk(base + "/about", script: script, seconds: seconds)
                bare = try wrk(base + "/_health", script: script, seconds: seconds)
            } else {
                bare = try wrk(base + "/_health", script: script, seconds: seconds)
                page = try wrk(base + "/about", script: script, seconds: seconds)
            }
            if page.non2xx > 0 { result.failures.append("GET /about: \(page.non2xx) answers were not 2xx") }
            if bare.non2xx > 0 { result.failures.append("GET /_health: \(bare.non2xx) answers were not 2xx") }
            measured.append((page, bare))
        }
        result.ratios = measured.map { $0.page.requestsPerSecond / $0.bare.requestsPerSecond }
        let median = measured.sorted { $0.page.requestsPerSecond / $0.bare.requestsPerSecond < $1.page.requestsPerSecond / $1.bare.requestsPerSecond }[measured.count / 2]
        result.page = median.page
        result.bare = median.bare
        result.ratio = median.page.requestsPerSecond / median.bare.requestsPerSecond
        return result
    }

    /// The `http://host:port` from den serve's first line ("Den is serving on http://127.0.0.1:PORT").
    static func readAddress(from handle: FileHandle) -> String? {
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let data = handle.availableData
            if data.isEmpty { return nil }
            text += String(decoding: data, as: UTF8.self)
            if let range = text.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression) {
                return String(text[range])
            }
        }
        return nil
    }

    /// The `den_session=…` pair from the Set-Cookie of one GET, with `den_rev=…` when set, as a
    /// browser sends them back.
    static func sessionCookie(_ url: String) -> String? {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        curl.arguments = ["curl", "-s", "-o", "/dev/null", "-D", "-", url]
        let pipe = Pipe()
        curl.standardOutput = pipe
        guard (try? curl.run()) != nil else { return nil }
        let headers = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        var pairs: [String] = []
        for name in ["den_session", "den_rev"] {
            for line in headers.split(whereSeparator: \.isNewline) where line.lowercased().hasPrefix("set-cookie: \(name)=") {
                if let pair = line.dropFirst("set-cookie: ".count).split(separator: ";").first { pairs.append(String(pair)) }
            }
        }
        return pairs.first?.hasPrefix("den_session=") == true ? pairs.joined(separator: "; ") : nil
    }

    static let sessions = 32

    /// A wrk script that sends the cookies in turn, one per request.
    static func rotationScript(_ cookies: [String]) -> String {
        let list = cookies.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
        local cookies = { \(list) }
        local n = 0
        request = function()
          n = n % #cookies + 1
          return wrk.format(nil, nil, { ["Cookie"] = cookies[n] })
        end
        """
    }

    /// Runs wrk (2 threads) and reads its requests/s, 99th percentile latency and non-2xx count.
    func wrk(_ url: String, script: URL, seconds: Int) throws -> Figure {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrkPath)
        process.arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency", "-s", script.path, url]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let rate = Self.number(after: "Requests/sec:", in: text), let p99 = Self.latency(after: "99%", in: text) else {
            throw BenchError("wrk printed no figures for \(url):\n\(text)")
        }
        let non2xx = Self.number(after: "Non-2xx or 3xx responses:", in: text).map(Int.init) ?? 0
        return Figure(requestsPerSecond: rate, p99Milliseconds: p99, non2xx: non2xx)
    }

    static func number(after label: String, in text: String) -> Double? {
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.contains(label) }) else { return nil }
        return line.components(separatedBy: label).last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// wrk's latency ("1.23ms", "850.00us", "1.01s") in milliseconds.
    static func latency(after label: String, in text: String) -> Double? {
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }),
              let value = line.split(separator: " ", omittingEmptySubsequences: true).last else { return nil }
        let units: [(String, Double)] = [("us", 0.001), ("ms", 1), ("s", 1000)]
        for (unit, scale) in units where value.hasSuffix(unit) {
            return Double(value.dropLast(unit.count)).map { $0 * scale }
        }
        return nil
    }
}
