import DenHost
import DenKit
import DenSQLiteEngine
import Foundation

/// Figure 11: what an attacker gets from `den serve` (docs/WEB.md "Login", docs/modules/login.md
/// "Throttling"), each beside a baseline in the same run:
///
/// - **guesses at one account**: one attacker connection posts wrong passwords for `alice`
///   through the login form for `seconds`, a fresh browser session (so a fresh CSRF token) each
///   time, and counts the answers that were real checks ("Wrong username or password") against
///   those the throttle answered. Baseline: the same den with throttling as lenient as the host
///   allows (`den config set den.auth max_failed_attempts 100`, so 100 per account and 400 per
///   address before any delay: none within the window).
/// - **guesses across many accounts** from one address: the same, a new username each time.
/// - **`GET /jogs` with 20,000 jogs**: the list reopened (`/jogs?r=<n>`: the screen is built, the
///   jogs read and one page drawn), beside the same request for a user with 50 jogs (one page, no
///   paging needed): the median time and the page's bytes.
struct AttackBench {
    var denPath: String
    var workDirectory: URL
    var seconds: Double
    var jogRequests: Int

    static let password = "correct horse battery"
    static let bigLog = 20_000
    static let smallLog = 50

    struct Guessing {
        var checked = 0
        var throttled = 0
        var seconds = 0.0
        var perSecond: Double { Double(checked) / seconds }
    }

    struct Result {
        var oneAccount: (baseline: Guessing, throttled: Guessing)?
        var manyAccounts: (baseline: Guessing, throttled: Guessing)?
        var bigList = Samples()
        var smallList = Samples()
        var bigBytes = 0
        var smallBytes = 0
        var failures: [String] = []
    }

    func run() throws -> Result {
        var result = Result()
        var one: [Bool: Guessing] = [:], many: [Bool: Guessing] = [:]
        for lenient in [true, false] {
            let data = workDirectory.appendingPathComponent(lenient ? "lenient" : "default")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            if lenient {
                let set = try runDen(["config", "set", "den.auth", "max_failed_attempts", "100", "--data-dir", data.path])
                if set != 0 { result.failures.append("den config set exited \(set)") }
            }
            try withServer(data) { app in
                _ = try app.register("alice")
                one[lenient] = try guess(app) { _ in "alice" }
            }
            // A fresh server, so the address's count starts again.
            try withServer(data) { app in
                many[lenient] = try guess(app) { "victim\($0)" }
            }
        }
        result.oneAccount = (one[true]!, one[false]!)
        result.manyAccounts = (many[true]!, many[false]!)

        // The jogs list: two users, 20,000 and 50 jogs, written straight into den's storage.
        let data = workDirectory.appendingPathComponent("jogs")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try withServer(data) { app in
            _ = try app.register("bigrunner")
            _ = try app.register("smallrunner")
        }
        try seed(data, user: "bigrunner", count: Self.bigLog)
        try seed(data, user: "smallrunner", count: Self.smallLog)
        try withServer(data) { app in
            let big = try app.logIn("bigrunner"), small = try app.logIn("smallrunner")
            for round in 0..<(jogRequests + 2) {
                for (session, isBig) in [(big, true), (small, false)] {
                    let start = nowNanoseconds()
                    let reply = try LoopbackHTTP.get(app.port, "/jogs?r=\(round)", cookie: session.cookie)
                    let elapsed = nowNanoseconds() - start
                    guard reply.status == 200 else { result.failures.append("GET /jogs answered \(reply.status)"); continue }
                    guard round >= 2 else { continue }
                    if isBig { result.bigList.add(elapsed); result.bigBytes = reply.body.utf8.count }
                    else { result.smallList.add(elapsed); result.smallBytes = reply.body.utf8.count }
                }
            }
        }
        return result
    }

    /// Wrong passwords for `seconds`, one at a time; `user` names the account of attempt n.
    private func guess(_ app: MonolithBench.App, user: (Int) -> String) throws -> Guessing {
        var result = Guessing()
        let start = Date()
        var attempt = 0
        while Date().timeIntervalSince(start) < seconds {
            let page = try LoopbackHTTP.get(app.port, "/login")
            guard let cookie = page.setCookie("den_session"), let csrf = page.inputValue("_csrf") else {
                throw LoopbackHTTP.Failure(description: "GET /login gave no session")
            }
            let reply = try LoopbackHTTP.post(app.port, "/_action", cookie: cookie, form: [
                ("_csrf", csrf), ("_route", "login"), ("f.username", user(attempt)), ("f.password", "guess number \(attempt)"),
                ("_action", "log-in")])
            let shown = try LoopbackHTTP.get(app.port, reply.header("Location") ?? "/login", cookie: cookie).body
            if shown.contains("Too many failed logins") { result.throttled += 1 }
            else if shown.contains("Wrong username or password") { result.checked += 1 }
            else { throw LoopbackHTTP.Failure(description: "a login attempt answered neither a refusal nor a wait: \(shown.prefix(300))") }
            attempt += 1
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    /// `count` jogs for `user`, one a day back from 2026-01-01, as the Jogs module stores them.
    private func seed(_ data: URL, user: String, count: Int) throws {
        let engine = SQLiteStorageEngine(directory: data)
        defer { engine.close() }
        let start = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var operations: [StorageOperation] = []
        for id in 1...count {
            let date = formatter.string(from: start.addingTimeInterval(-Double(id) * 86_400 / 4))
            let metres = 4000 + (id % 9) * 750
            operations.append(.set(key: "user/\(user)/jogs/\(id)",
                                   value: #"{"v":1,"id":\#(id),"date":"\#(date)","distance_m":\#(metres),"duration_s":\#(metres * 330 / 1000)}"#))
        }
        operations.append(.set(key: "user/\(user)/jogs-last-id", value: String(count)))
        try engine.apply(namespace: "jogs", operations: operations)
    }

    private func withServer(_ data: URL, _ body: (MonolithBench.App) throws -> Void) throws {
        let den = Process()
        den.executableURL = URL(fileURLWithPath: denPath)
        den.arguments = ["serve", "--port", "0", "--plugins", "login,jogs", "--data-dir", data.path,
                         "--cache-dir", workDirectory.appendingPathComponent("cache").path]
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "DEN_PLUGIN_PATH")
        den.environment = environment
        let output = Pipe()
        den.standardOutput = output
        den.standardError = FileHandle.nullDevice
        try den.run()
        defer {
            den.terminate()
            den.waitUntilExit()
        }
        guard let base = WebBench.readAddress(from: output.fileHandleForReading), let port = Int(base.split(separator: ":").last ?? "") else {
            throw LoopbackHTTP.Failure(description: "den serve printed no address")
        }
        try body(MonolithBench.App(kind: .den, port: port, pid: den.processIdentifier))
    }

    private func runDen(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: denPath)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
