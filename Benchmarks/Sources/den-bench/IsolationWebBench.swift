import Foundation

/// The isolation figure's `den serve` part: two servers in one run, the C fault module
/// (Tests/Fixtures/DenFixtureFaults) isolated in one (`--isolate faults`) and in-process in the
/// other, measured with `wrk` in alternating rounds (which server goes first alternates too; the
/// figure is the median round's ratio).
///
/// Each browser session (32 cookies in rotation, as in the web figure) goes back and forth between
/// `/faults` and `/faults/big`, so every GET takes a step with module calls: open the screen
/// (build, `appear`) or go back to it, then save the session with each screen's snapshot. A
/// reload of the screen already on top would call no module at all (PageRequests), so it would
/// not tell isolated from in-process.
struct IsolationWebBench {
    var denPath: String
    var wrkPath: String
    /// The folder holding libDenFixtureFaults.so (den serve loads every .so of a --plugin-dir).
    var plugin: URL
    var seconds: Int
    var rounds: Int
    var connections: Int
    var workDirectory: URL

    struct Result {
        var isolated: WebBench.Figure?
        var inProcess: WebBench.Figure?
        /// The median round's isolated / in-process requests per second, and every round's.
        var ratio: Double?
        var ratios: [Double] = []
        var failures: [String] = []
    }

    /// A server of its own: its own data folder, only the fault module.
    func startServer(isolated: Bool) throws -> (Process, String) {
        let folder = workDirectory.appendingPathComponent(isolated ? "isolated" : "in-process")
        let plugins = folder.appendingPathComponent("plugins")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: plugin, to: plugins.appendingPathComponent(plugin.lastPathComponent))
        let server = Process()
        server.executableURL = URL(fileURLWithPath: denPath)
        server.arguments = ["serve", "--port", "0", "--no-default-modules", "--plugin-dir", plugins.path] + (isolated ? ["--isolate", "faults"] : [])
        var environment = ProcessInfo.processInfo.environment
        environment["DEN_CACHE_DIR"] = folder.appendingPathComponent("cache").path
        environment["DEN_DATA_DIR"] = folder.appendingPathComponent("data").path
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("xdg").path
        environment.removeValue(forKey: "DEN_PLUGIN_PATH")
        server.environment = environment
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        guard let base = WebBench.readAddress(from: output.fileHandleForReading) else {
            server.terminate()
            server.waitUntilExit()
            throw BenchError("den serve\(isolated ? " --isolate faults" : "") printed no address")
        }
        return (server, base)
    }

    /// A wrk script: cookies in rotation, each session alternating between the two screens.
    static func navigationScript(_ cookies: [String]) -> String {
        let list = cookies.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
        local cookies = { \(list) }
        local paths = { "/faults/big", "/faults" }
        local n = 0
        request = function()
          local session = n % #cookies + 1
          local path = paths[math.floor(n / #cookies) % 2 + 1]
          n = n + 1
          return wrk.format("GET", path, { ["Cookie"] = cookies[session] })
        end
        """
    }

    func run() throws -> Result {
        var result = Result()
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        let (isolatedServer, isolatedBase) = try startServer(isolated: true)
        defer { isolatedServer.terminate(); isolatedServer.waitUntilExit() }
        let (inProcessServer, inProcessBase) = try startServer(isolated: false)
        defer { inProcessServer.terminate(); inProcessServer.waitUntilExit() }
        let web = WebBench(denPath: denPath, wrkPath: wrkPath, seconds: seconds, rounds: rounds, connections: connections,
                           workDirectory: workDirectory)
        var scripts: [String: URL] = [:]
        for (label, base) in [("isolated", isolatedBase), ("in-process", inProcessBase)] {
            let cookies = (0..<WebBench.sessions).compactMap { _ in WebBench.sessionCookie(base + "/faults") }
            guard cookies.count == WebBench.sessions else { throw BenchError("GET /faults (\(label)) set no den_session cookie") }
            let script = workDirectory.appendingPathComponent("\(label).lua")
            try Self.navigationScript(cookies).write(to: script, atomically: true, encoding: .utf8)
            scripts[label] = script
            _ = try web.wrk(base + "/faults", script: script, seconds: 2) // warm-up
        }
        var measured: [(isolated: WebBench.Figure, inProcess: WebBench.Figure)] = []
        for round in 0..<max(rounds, 1) {
            let isolated: WebBench.Figure, inProcess: WebBench.Figure
            if round % 2 == 0 {
                isolated = try web.wrk(isolatedBase + "/faults", script: scripts["isolated"]!, seconds: seconds)
                inProcess = try web.wrk(inProcessBase + "/faults", script: scripts["in-process"]!, seconds: seconds)
            } else {
                inProcess = try web.wrk(inProcessBase + "/faults", script: scripts["in-process"]!, seconds: seconds)
                isolated = try web.wrk(isolatedBase + "/faults", script: scripts["isolated"]!, seconds: seconds)
            }
            if isolated.non2xx > 0 { result.failures.append("isolated: \(isolated.non2xx) answers were not 2xx") }
            if inProcess.non2xx > 0 { result.failures.append("in-process: \(inProcess.non2xx) answers were not 2xx") }
            measured.append((isolated, inProcess))
        }
        result.ratios = measured.map { $0.isolated.requestsPerSecond / $0.inProcess.requestsPerSecond }
        let median = measured.sorted { $0.isolated.requestsPerSecond / $0.inProcess.requestsPerSecond < $1.isolated.requestsPerSecond / $1.inProcess.requestsPerSecond }[measured.count / 2]
        result.isolated = median.isolated
        result.inProcess = median.inProcess
        result.ratio = median.isolated.requestsPerSecond / median.inProcess.requestsPerSecond
        return result
    }
}
