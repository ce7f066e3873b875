import Foundation

/// Figure 10: Den against the monolith a user would write instead (Benchmarks/Sources/jogs-monolith:
/// Den's Jogs pages as one Hummingbird + GRDB app with den's SQLite settings, its session cookie
/// and CSRF check, no plugins). `den serve --plugins login,jogs` and `jogs-monolith` run side by
/// side, both seeded through their own pages (a scrypt-hashed account per user, then 50 jogs
/// posted through the form), and wrk (2 threads, loopback) measures in alternating rounds:
///
/// - **list**: `GET /jogs` of a logged-in user with 50 jogs, 32 logged-in sessions' cookies in turn.
///   In den this is a reload of the screen on top: no module call, no SQL — the list was read when
///   the screen appeared. The monolith reads the 50 rows every time.
/// - **add**: the add-jog form as a browser posts it — `GET /jogs/new`, then the form with its
///   CSRF token (`POST /_action` in den, `POST /jogs/new` in the monolith), pipelined on one
///   connection, 32 sessions of a second user, 16 per wrk thread so a session is never used by two
///   connections at once. Each pair stores one jog; the stored count is checked at the end.
/// - **list, reopened** (info): `GET /jogs?r=<n>`, a new route every request, so den builds the
///   Jogs screen, reads the jogs through the storage service and renders it; the monolith does
///   what it does for the list.
struct MonolithBench {
    var denPath: String
    var monolithPath: String
    var wrkPath: String
    var seconds: Int
    var rounds: Int
    var connections: Int
    var workDirectory: URL
    /// Where both apps keep their SQLite files (default: inside `workDirectory`, on disk).
    /// `/dev/shm` takes the disk's fdatasync latency out of the add figure.
    var dataDirectory: URL?
    /// The pages to measure (all three by default; a subset for profiling one of them).
    var pages: [String] = ["list", "add", "reopen"]

    static let listSessions = 32
    static let addSessions = 32
    static let threads = 2
    static let seededJogs = 50
    static let password = "correct horse battery"
    /// The jog every measured add posts.
    static let postedJog = (date: "2026-01-15", distance: "5.25", duration: "28:30")

    enum Kind: String { case den, monolith }

    struct Figure {
        var requestsPerSecond: Double
        var p99Milliseconds: Double
        /// wrk's mean latency (per pipelined pair for the add figure, where wrk's percentiles break).
        var meanMilliseconds: Double
        var requests: Int
        var non2xx: Int
        /// CPU time of the server process (all its threads) over the run's wall time: how many of
        /// the 2 cores it kept busy (wrk takes most of the rest).
        var serverCores: Double = .nan
    }

    struct Page {
        /// The median round by ratio.
        var den: Figure?
        var monolith: Figure?
        var ratio: Double?
        var ratios: [Double] = []
    }

    struct Result {
        var list = Page()
        var add = Page()
        var reopen = Page()
        var notes: [String] = []
        var failures: [String] = []
    }

    /// One server under test, and how its pages are driven.
    struct App {
        let kind: Kind
        let port: Int
        let pid: Int32
        var cookieName: String { kind == .den ? "den_session" : "jogs_session" }
        var postPath: String { kind == .den ? "/_action" : "/jogs/new" }

        struct Session {
            var cookie: String
            var csrf: String
            /// `den_rev=…` of the last answer (den only), which a browser sends back.
            var revision: String?
            /// The Cookie header a browser sends.
            var cookies: String { [cookie, revision].compactMap { $0 }.joined(separator: "; ") }
        }

        /// Registers `user` (scrypt, standard parameters) and returns its logged-in session.
        func register(_ user: String) throws -> Session {
            let path = kind == .den ? "/login/register?next=jogs" : "/register?next=%2Fjogs"
            return try account(path: path, fields: [("username", user), ("password", MonolithBench.password), ("repeat", MonolithBench.password)],
                               button: "register", what: "register \(user)")
        }

        func logIn(_ user: String) throws -> Session {
            let path = kind == .den ? "/login?next=jogs" : "/login?next=%2Fjogs"
            return try account(path: path, fields: [("username", user), ("password", MonolithBench.password)], button: "log-in",
                               what: "log in \(user)")
        }

        private func account(path: String, fields: [(String, String)], button: String, what: String) throws -> Session {
            let page = try LoopbackHTTP.get(port, path)
            guard page.status == 200, let cookie = page.setCookie(cookieName), let csrf = page.inputValue("_csrf") else {
                throw LoopbackHTTP.Failure(description: "\(kind): GET \(path) answered \(page.status) without a session cookie and a CSRF token")
            }
            var form = [("_csrf", csrf)]
            switch kind {
            case .den:
                guard let route = page.inputValue("_route") else { throw LoopbackHTTP.Failure(description: "den: GET \(path) has no _route") }
                form.append(("_route", route))
                form += fields.map { ("f." + $0.0, $0.1) }
            case .monolith:
                form.append(("next", page.inputValue("next") ?? "/jogs"))
                form += fields
            }
            form.append(("_action", button))
            let reply = try LoopbackHTTP.post(port, kind == .den ? "/_action" : String(path.split(separator: "?")[0]), cookie: cookie, form: form)
            guard reply.status == 303, let loggedIn = reply.setCookie(cookieName), loggedIn != cookie else {
                throw LoopbackHTTP.Failure(description: "\(kind): \(what) answered \(reply.status) without a new session cookie: \(reply.body.prefix(300))")
            }
            // Like a browser, follow the redirect; den gives a session a new CSRF token at login.
            let landing = try reply.header("Location").map { try LoopbackHTTP.get(port, $0, cookie: loggedIn) }
            return Session(cookie: loggedIn, csrf: landing?.inputValue("_csrf") ?? csrf,
                           revision: landing?.setCookie("den_rev") ?? reply.setCookie("den_rev"))
        }

        /// The add-jog form's post body, fields in the page's order, as a browser sends it.
        func addBody(_ session: Session, date: String, distance: String, duration: String) -> String {
            switch kind {
            case .den:
                LoopbackHTTP.formEncoded([("_csrf", session.csrf), ("_route", "jogs/new"), ("f.date", date), ("f.distance", distance),
                                          ("f.duration", duration), ("_action", "save")])
            case .monolith:
                LoopbackHTTP.formEncoded([("_csrf", session.csrf), ("date", date), ("distance", distance), ("duration", duration),
                                          ("_action", "save")])
            }
        }

        /// Opens the form and posts it, as the figure's pairs do; fails unless a jog was stored.
        func addJog(_ session: Session, date: String, distance: String, duration: String) throws {
            let form = try LoopbackHTTP.get(port, "/jogs/new", cookie: session.cookie)
            guard form.status == 200 else { throw LoopbackHTTP.Failure(description: "\(kind): GET /jogs/new answered \(form.status)") }
            let reply = try LoopbackHTTP.send(port, "POST", postPath, cookie: session.cookie,
                                              body: addBody(session, date: date, distance: distance, duration: duration))
            guard reply.status == 303, let location = reply.header("Location"), location.hasPrefix("/jogs/"),
                  location.dropFirst(6).allSatisfy(\.isNumber) else {
                throw LoopbackHTTP.Failure(description: "\(kind): posting a jog answered \(reply.status) \(reply.header("Location") ?? "") \(reply.body.prefix(300))")
            }
        }
    }

    /// The 50 seeded jogs, the same for both: one a week through 2025, 4–10 km at 5:00–6:00 min/km.
    static func seedJogs() -> [(date: String, distance: String, duration: String)] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.date(from: DateComponents(year: 2025, month: 1, day: 1))!
        return (0..<seededJogs).map { i in
            let day = calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: 7 * i, to: start)!)
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
            let metres = 4000 + (i % 9) * 750
            let seconds = metres * (300 + (i % 5) * 15) / 1000
            let km = metres % 1000 == 0 ? String(metres / 1000) : "\(metres / 1000).\(String(metres % 1000).trimmingSuffix("0"))"
            let duration = seconds >= 3600 ? "\(seconds / 3600):\(two(seconds % 3600 / 60)):\(two(seconds % 60))" : "\(seconds / 60):\(two(seconds % 60))"
            return ("\(day.year!)-\(two(day.month!))-\(two(day.day!))", km, duration)
        }
    }

    func run() throws -> Result {
        var result = Result()
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        // den serve with Login and Jogs only, its own data and cache folders.
        let den = Process()
        den.executableURL = URL(fileURLWithPath: denPath)
        // 32 sessions of one user: past den's default cap per account (10), which the monolith lacks.
        den.arguments = ["serve", "--port", "0", "--plugins", "login,jogs", "--max-sessions-per-account", "64"]
        var environment = ProcessInfo.processInfo.environment
        environment["DEN_CACHE_DIR"] = workDirectory.appendingPathComponent("den-cache").path
        let data = dataDirectory ?? workDirectory
        environment["DEN_DATA_DIR"] = data.appendingPathComponent("den-data").path
        environment["XDG_DATA_HOME"] = workDirectory.appendingPathComponent("xdg").path
        environment.removeValue(forKey: "DEN_PLUGIN_PATH")
        den.environment = environment
        let monolith = Process()
        monolith.executableURL = URL(fileURLWithPath: monolithPath)
        monolith.arguments = ["--port", "0", "--data-dir", data.appendingPathComponent("monolith-data").path]
        var servers: [(Process, Kind)] = []
        defer {
            for (server, _) in servers {
                server.terminate()
                server.waitUntilExit()
            }
        }
        var apps: [Kind: App] = [:]
        for (server, kind) in [(den, Kind.den), (monolith, .monolith)] {
            let output = Pipe()
            server.standardOutput = output
            server.standardError = FileHandle.nullDevice
            try server.run()
            servers.append((server, kind))
            guard let base = WebBench.readAddress(from: output.fileHandleForReading), base.hasPrefix("http://127.0.0.1:"),
                  let port = Int(base.split(separator: ":").last ?? "") else {
                result.failures.append("\(kind) printed no 127.0.0.1 address")
                return result
            }
            apps[kind] = App(kind: kind, port: port, pid: server.processIdentifier)
        }
        let both = [apps[.den]!, apps[.monolith]!]

        // Seed both the same way: two accounts, 50 jogs for the first through its form, then the
        // logged-in sessions (one scrypt verify each, at setup only).
        var listCookies: [Kind: [String]] = [:]
        var adders: [Kind: [App.Session]] = [:]
        do {
            for app in both {
                let runner = try app.register("runner")
                for jog in Self.seedJogs() { try app.addJog(runner, date: jog.date, distance: jog.distance, duration: jog.duration) }
                _ = try app.register("adder")
                listCookies[app.kind] = try (0..<Self.listSessions).map { _ in try app.logIn("runner").cookies }
                adders[app.kind] = try (0..<Self.addSessions).map { _ in try app.logIn("adder") }
            }
        } catch {
            result.failures.append("setup: \(error)")
            return result
        }
        // Both list pages show the same 50 jogs; note the page sizes.
        for app in both {
            let list = try LoopbackHTTP.get(app.port, "/jogs", cookie: listCookies[app.kind]![0])
            let form = try LoopbackHTTP.get(app.port, "/jogs/new", cookie: adders[app.kind]![0].cookie)
            let count = Self.jogLinks(in: list.body)
            if list.status != 200 || count != Self.seededJogs {
                result.failures.append("\(app.kind): GET /jogs answered \(list.status) with \(count) jog links, not \(Self.seededJogs)")
            }
            result.notes.append("\(app.kind): GET /jogs \(list.body.utf8.count) bytes of HTML (\(count) jogs), GET /jogs/new \(form.body.utf8.count) bytes")
        }
        // After the form page above, den's first adder session is on jogs/new already; that is
        // where every pair starts anyway (a second GET of the top shows it again).

        var scripts: [String: URL] = [:]
        for app in both {
            let cookies = listCookies[app.kind]!
            scripts["list-\(app.kind)"] = try script("list-\(app.kind)", WebBench.rotationScript(cookies))
            scripts["reopen-\(app.kind)"] = try script("reopen-\(app.kind)", Self.reopenScript(cookies))
            let bodies = adders[app.kind]!.map { session in
                (session.cookie, app.addBody(session, date: Self.postedJog.date, distance: Self.postedJog.distance, duration: Self.postedJog.duration))
            }
            scripts["add-\(app.kind)"] = try script("add-\(app.kind)", Self.addScript(bodies, postPath: app.postPath))
        }
        var posted: [Kind: Int] = [.den: 0, .monolith: 0]
        func measure(_ page: String, _ app: App, seconds: Int) throws -> Figure {
            let cpuBefore = Self.cpuSeconds(app.pid), start = nowNanoseconds()
            var figure = try wrk("http://127.0.0.1:\(app.port)/jogs" + (page == "add" ? "/new" : ""), script: scripts["\(page)-\(app.kind)"]!,
                                 seconds: seconds)
            if let before = cpuBefore, let after = Self.cpuSeconds(app.pid) {
                figure.serverCores = (after - before) / (Double(nowNanoseconds() - start) / 1e9)
            }
            if page == "add" { posted[app.kind, default: 0] += figure.requests / 2 }
            if figure.non2xx > 0 { result.failures.append("\(app.kind) \(page): \(figure.non2xx) answers were 4xx or 5xx") }
            return figure
        }
        for page in pages {
            for app in both { _ = try measure(page, app, seconds: 2) }
        }
        var measured: [String: [(den: Figure, monolith: Figure)]] = [:]
        for round in 0..<max(rounds, 1) {
            for page in pages {
                let order = round % 2 == 0 ? both : both.reversed()
                var figures: [Kind: Figure] = [:]
                for app in order { figures[app.kind] = try measure(page, app, seconds: seconds) }
                measured[page, default: []].append((figures[.den]!, figures[.monolith]!))
            }
        }
        for (page, keyPath) in [("list", \Result.list), ("add", \Result.add), ("reopen", \Result.reopen)] {
            let pairs = measured[page] ?? []
            guard !pairs.isEmpty else { continue }
            let ratio = { (pair: (den: Figure, monolith: Figure)) in pair.den.requestsPerSecond / pair.monolith.requestsPerSecond }
            let median = pairs.sorted { ratio($0) < ratio($1) }[pairs.count / 2]
            result[keyPath: keyPath] = Page(den: median.den, monolith: median.monolith, ratio: ratio(median), ratios: pairs.map(ratio))
        }
        // Every pair should have stored a jog (wrk counts only answered requests, so a few more may be stored).
        for app in both {
            let list = try LoopbackHTTP.get(app.port, "/jogs", cookie: adders[app.kind]![0].cookie)
            // den pages its list (50 a page) and counts the whole filter in its totals line.
            let stored = app.kind == .den ? Self.totalJogs(in: list.body) ?? 0 : Self.jogLinks(in: list.body)
            result.notes.append("\(app.kind): the adder has \(stored) jogs stored for \(posted[app.kind]!) answered form posts")
            if stored < posted[app.kind]! - connections {
                result.failures.append("\(app.kind): only \(stored) of \(posted[app.kind]!) posted jogs were stored")
            }
        }
        return result
    }

    /// User + system CPU seconds of a process, all threads (`/proc/<pid>/stat`, clock ticks of 1/100 s).
    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after "pid (comm)": state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Links to one jog (`/jogs/<digits>`) in a page.
    /// The count in den's totals line ("1,016 jogs · 5,300.5 km · …").
    static func totalJogs(in html: String) -> Int? {
        guard let end = html.range(of: " jogs · ") ?? html.range(of: " jog · ") else { return nil }
        let digits = html[..<end.lowerBound].reversed().prefix { $0.isNumber || $0 == "," }.filter(\.isNumber)
        return Int(String(digits.reversed()))
    }

    static func jogLinks(in html: String) -> Int {
        let needle = Array("href=\"/jogs/".utf8)
        var count = 0
        var html = html
        html.withUTF8 { bytes in
            var index = 0
            while index + needle.count < bytes.count {
                if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) {
                    index += needle.count
                    if (48...57).contains(bytes[index]) { count += 1 }
                } else {
                    index += 1
                }
            }
        }
        return count
    }

    private func script(_ name: String, _ text: String) throws -> URL {
        let url = workDirectory.appendingPathComponent(name + ".lua")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// A new route at every request (`/jogs?r=<n>`), cookies in turn.
    static func reopenScript(_ cookies: [String]) -> String {
        let list = cookies.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
        local cookies = { \(list) }
        local n = 0
        local m = 0
        request = function()
          n = n % #cookies + 1
          m = m + 1
          return wrk.format("GET", "/jogs?r=" .. m, { ["Cookie"] = cookies[n] })
        end
        """
    }

    /// `GET /jogs/new` and the form post, pipelined on one connection (wrk sends both, then waits
    /// for both answers); each wrk thread takes its own sessions, in turn.
    static func addScript(_ sessions: [(cookie: String, body: String)], postPath: String) -> String {
        let list = sessions.map { "{ \"\($0.cookie)\", \"\($0.body)\" }" }.joined(separator: ",\n  ")
        return """
        local sessions = {
          \(list)
        }
        local counter = 0
        function setup(thread)
          thread:set("tid", counter)
          counter = counter + 1
        end
        function init(args)
          mine = {}
          for i, s in ipairs(sessions) do
            if (i - 1) % \(threads) == tid then
              mine[#mine + 1] = wrk.format("GET", "/jogs/new", { ["Cookie"] = s[1] })
                .. wrk.format("POST", "\(postPath)", { ["Cookie"] = s[1], ["Content-Type"] = "application/x-www-form-urlencoded" }, s[2])
            end
          end
          n = 0
        end
        function request()
          n = n % #mine + 1
          return mine[n]
        end
        """
    }

    /// wrk with 2 threads: requests/s, p99, the number of answers and of 4xx/5xx answers.
    func wrk(_ url: String, script: URL, seconds: Int) throws -> Figure {
        precondition(url.hasPrefix("http://127.0.0.1:"), "the monolith figure only ever loads 127.0.0.1")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrkPath)
        process.arguments = ["-t\(Self.threads)", "-c\(connections)", "-d\(seconds)s", "--timeout", "10s", "--latency", "-s", script.path, url]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if ProcessInfo.processInfo.environment["DEN_BENCH_SHOW_WRK"] != nil {
            FileHandle.standardError.write(Data("wrk \(script.lastPathComponent) \(url):\n\(text)\n".utf8))
        }
        guard let rate = WebBench.number(after: "Requests/sec:", in: text), let p99 = WebBench.latency(after: "99%", in: text),
              let line = text.split(whereSeparator: \.isNewline).first(where: { $0.contains(" requests in ") }),
              let requests = Int(line.trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) else {
            throw BenchError("wrk printed no figures for \(url):\n\(text)")
        }
        let non2xx = WebBench.number(after: "Non-2xx or 3xx responses:", in: text).map(Int.init) ?? 0
        // "    Latency   116.22ms   45.00ms 208.34ms   40.59%": the mean is the second field.
        let meanLine = text.split(whereSeparator: \.isNewline).first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Latency ") }
        let mean = meanLine.flatMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { WebBench.latency(after: "x", in: "x " + $0) }
        } ?? .nan
        return Figure(requestsPerSecond: rate, p99Milliseconds: p99, meanMilliseconds: mean, requests: requests, non2xx: non2xx)
    }
}

private extension String {
    func trimmingSuffix(_ character: Character) -> String {
        var text = self
        while text.last == character { text.removeLast() }
        return text
    }
}
