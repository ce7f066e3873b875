import DenTestSupport
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real deployment: three `den serve` hosts on one PostgreSQL database (the test process's
/// cluster), nginx on a loopback port in front, round robin. Browser sessions live in the
/// database, so any host answers any request; a host killed with SIGKILL costs no session and,
/// with nginx retrying the next host, no failed page.
@Suite("Three hosts behind nginx on PostgreSQL", .serialized)
struct DeploymentEndToEndTests {
    static let password = "Sesame-Opens-42"

    /// The database, the hosts (each with its own data and cache folder) and nginx.
    final class Deployment: @unchecked Sendable {
        let den: DenCommand
        let url: String
        let database: String
        let cluster: PostgresCluster
        let ports: [Int]
        private let hosts = Mutex<[Int: ServedDen]>([:])
        /// Started after the hosts: nginx marks a host it cannot reach as down for a while.
        private(set) var proxy: NginxProxy!

        init(users: [String]) throws {
            den = try DenCommand()
            cluster = try PostgresCluster.shared()
            database = try cluster.makeDatabase("deploy")
            url = cluster.url(database: database)
            for user in users {
                let added = try den.run(["users", "add", user, "--database", url], input: DeploymentEndToEndTests.password + "\n")
                guard added.status == 0 else { throw ClusterFailure("den users add: \(added.stderr)") }
            }
            ports = try (0..<3).map { _ in try PostgresCluster.freePort() }
            for port in ports { try start(port) }
            proxy = try NginxProxy(upstreams: ports)
        }

        func start(_ port: Int) throws {
            let host = try ServedDen(BuildProducts.den, arguments: ["serve", "--port", "\(port)", "--database", url], environment: [
                "DEN_DATA_DIR": den.temp.path("data-\(port)").path, "DEN_CACHE_DIR": den.temp.path("cache-\(port)").path,
                "XDG_DATA_HOME": den.temp.path("xdg").path, "DEN_PLUGIN_PATH": "",
            ])
            guard host.port == port else { throw ClusterFailure("den serve on \(port) did not start: \(host.printed)") }
            hosts.withLock { $0[port] = host }
        }

        /// SIGKILL: no goodbye, no flush.
        func kill(_ port: Int) {
            guard let host = hosts.withLock({ $0.removeValue(forKey: port) }) else { return }
            Glibc.kill(host.process.processIdentifier, SIGKILL)
            host.process.waitUntilExit()
        }

        /// SIGTERM, waited for, then a new den on the same port.
        func restart(_ port: Int) throws {
            hosts.withLock { $0.removeValue(forKey: port) }?.stop()
            try start(port)
        }

        func stop() {
            for host in hosts.withLock({ Array($0.values) }) { host.stop() }
            proxy?.stop()
        }

        /// What each running host printed since it started serving (for a failure's message).
        var printed: String {
            hosts.withLock { $0 }.map { "host \($0.key): \($0.value.printedSince.suffix(1500))" }.joined(separator: "\n")
        }

        /// Every jog id stored for `user`.
        func storedJogs(of user: String) throws -> Set<Int> {
            let prefix = "user/\(user)/jogs/"
            let keys = try cluster.sql("SELECT convert_from(key, 'UTF8') FROM den_entries WHERE namespace = 'jogs' AND convert_from(key, 'UTF8') LIKE '\(prefix)%'",
                                       database: database)
            return Set(keys.split(separator: "\n").compactMap { Int($0.dropFirst(prefix.count)) })
        }
    }

    /// A browser through nginx: keeps its cookie and reads the CSRF token off each page.
    final class ProxiedBrowser: @unchecked Sendable {
        let port: Int
        var cookie: String?
        /// `den_rev=…`, sent back as a browser does.
        var revision: String?
        var csrf: String?

        init(port: Int) { self.port = port }

        private var cookies: String? {
            let pairs = [cookie, revision].compactMap { $0 }
            return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
        }

        @discardableResult
        func get(_ path: String) throws -> RawHTTP.Reply {
            let reply = try RawHTTP.get(port: port, path, cookie: cookies)
            keep(reply)
            return reply
        }

        @discardableResult
        func post(_ fields: [(String, String)]) throws -> RawHTTP.Reply {
            let form = ([("_csrf", csrf ?? "")] + fields).map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
            let reply = try RawHTTP.post(port: port, "/_action", form: form, cookie: cookies ?? "")
            keep(reply)
            return reply
        }

        private func keep(_ reply: RawHTTP.Reply) {
            if let fresh = reply.sessionCookie { cookie = fresh }
            if let revision = reply.revisionCookie { self.revision = revision }
            if let range = reply.body.range(of: #"name="_csrf" value=""#) {
                csrf = String(reply.body[range.upperBound...].prefix { $0 != "\"" })
            }
        }

        static func encode(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
        }

        static func location(_ reply: RawHTTP.Reply) -> String? {
            reply.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location: ") }.map { String($0.dropFirst("location: ".count)) }
        }

        /// Logs in as `user` and lands on the jogs list.
        func logIn(_ user: String) throws {
            try get("/login?next=jogs")
            let login = try post([("_route", "login?next=jogs"), ("_action", "log-in"), ("f.username", user), ("f.password", DeploymentEndToEndTests.password)])
            guard Self.location(login) == "/jogs" else { throw ClusterFailure("login of \(user) answered \(login.status): \(login.head)") }
        }

        /// Adds a jog; returns its id when den acknowledged it (303 to /jogs/<id>).
        func addJog(km: String) throws -> Int? {
            let reply = try post([("_route", "jogs/new"), ("_action", "save"), ("f.date", "2026-11-20"), ("f.distance", km), ("f.duration", "30:00")])
            guard reply.status == 303, let location = Self.location(reply), location.hasPrefix("/jogs/") else { return nil }
            return Int(location.dropFirst("/jogs/".count))
        }
    }

    /// What a load run saw.
    struct LoadCount: Sendable {
        var served = 0
        var failed = 0
        var lostSessions = 0
        /// The longest single request (the failover shows here).
        var longest: Duration = .zero
    }

    /// `browsers` logged-in browsers reading /jogs until `seconds` pass; `during` runs meanwhile.
    static func readLoad(_ browsers: [ProxiedBrowser], seconds: Double, during: @Sendable () throws -> Void) throws -> LoadCount {
        let total = Mutex(LoadCount())
        let end = Date().addingTimeInterval(seconds)
        let group = DispatchGroup()
        for browser in browsers {
            DispatchQueue.global().async(group: group) {
                while Date() < end {
                    let started = ContinuousClock.now
                    let reply = try? browser.get("/jogs")
                    let took = ContinuousClock.now - started
                    total.withLock { count in
                        count.longest = max(count.longest, took)
                        switch reply?.status {
                        case 200?: count.served += 1
                        case 303? where ProxiedBrowser.location(reply!)?.hasPrefix("/login") == true: count.lostSessions += 1
                        default: count.failed += 1
                        }
                    }
                }
            }
        }
        try during()
        group.wait()
        return total.withLock { $0 }
    }

    @Test("the walkthrough through nginx: log in, add a jog, list it, with the requests answered by different hosts")
    func walkthrough() throws {
        let deployment = try Deployment(users: ["alice"])
        defer { deployment.stop() }
        let browser = ProxiedBrowser(port: deployment.proxy.port)
        do { try browser.logIn("alice") } catch {
            Issue.record("\(error)\nnginx: \(deployment.proxy.errorLog)\n\(deployment.proxy.accessLog)")
            return
        }
        #expect(try browser.get("/jogs").status == 200)
        try browser.get("/jogs/new")
        let id = try browser.addJog(km: "7.25")
        #expect(id == 1)
        let detail = try browser.get("/jogs/1")
        #expect(detail.body.contains("7.25"), "\(detail.body.prefix(400))")
        let list = try browser.get("/jogs")
        #expect(list.body.contains("7.25"))
        let upstreams = Set(deployment.proxy.accessLog.compactMap { $0.split(separator: " ").first })
        #expect(upstreams.count == 3, "requests landed on \(upstreams.sorted())")
    }

    @Test("a host answers the reloads of a session it holds from memory: 300 of them read nothing from PostgreSQL")
    func heldSessionReadsNothing() throws {
        let deployment = try Deployment(users: ["alice"])
        defer { deployment.stop() }
        let browser = ProxiedBrowser(port: deployment.ports[0])
        try browser.logIn("alice")
        #expect(try browser.get("/jogs").status == 200)
        func transactions() throws -> Int {
            // The server's statistics reach pg_stat_database within a second of a transaction.
            Thread.sleep(forTimeInterval: 1.2)
            return Int(try deployment.cluster.sql("SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = '\(deployment.database)'",
                                                  database: deployment.database)) ?? -1
        }
        let before = try transactions()
        for _ in 0..<300 { #expect(try browser.get("/jogs").status == 200) }
        let after = try transactions()
        // What the hosts do by themselves meanwhile (grants, modules) is a few a second; a read
        // per request would be 300 more.
        #expect(before >= 0 && after - before < 100, "\(after - before) transactions for 300 reloads")
    }

    @Test("a logout on one host ends the old cookie on a host that held the session and trusts its revision, and a password change logs the other sessions out there")
    func logoutReachesEveryHost() throws {
        let deployment = try Deployment(users: ["alice"])
        defer { deployment.stop() }
        let (hostA, hostB) = (deployment.ports[0], deployment.ports[1])
        // The browser logs in on host A, then host B answers it (and holds it, with its revision).
        let browser = ProxiedBrowser(port: hostA)
        try browser.logIn("alice")
        let onB = ProxiedBrowser(port: hostB)
        onB.cookie = browser.cookie
        onB.revision = browser.revision
        #expect(try onB.get("/jogs").status == 200)
        #expect(try onB.get("/jogs").status == 200, "trusted from memory now")
        let (oldCookie, oldRevision) = (onB.cookie, onB.revision)
        // A phone logged in on host B too, held there.
        let phone = ProxiedBrowser(port: hostB)
        try phone.logIn("alice")

        // The browser logs out through host A.
        browser.cookie = onB.cookie
        browser.revision = onB.revision
        try browser.get("/login")
        let out = try browser.post([("_route", "login"), ("_action", "log-out")])
        #expect(out.sessionCookie != nil, "a new cookie at the logout")
        // Someone replays the old cookies at host B: they open nothing there either (host B
        // hears the deletion on den_changes within moments).
        var replay: RawHTTP.Reply?
        let deadline = Date().addingTimeInterval(5)
        repeat {
            let thief = ProxiedBrowser(port: hostB)
            thief.cookie = oldCookie
            thief.revision = oldRevision
            replay = try thief.get("/jogs")
            if replay?.status == 303 { break }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        #expect(replay.flatMap(ProxiedBrowser.location)?.hasPrefix("/login") == true, "\(replay?.status ?? 0) \(replay?.head.prefix(300) ?? "")")

        // A password change through host A logs the phone out on host B at its next request.
        let laptop = ProxiedBrowser(port: hostA)
        try laptop.logIn("alice")
        try laptop.get("/login/password")
        let change = try laptop.post([("_route", "login/password"), ("_action", "change"), ("f.current", Self.password),
                                      ("f.password", "New-Sesame-Words-9"), ("f.repeat", "New-Sesame-Words-9")])
        #expect(change.status == 303, "\(change.head.prefix(300))")
        var stale: RawHTTP.Reply?
        let changed = Date().addingTimeInterval(5)
        repeat {
            stale = try phone.get("/jogs")
            if stale?.status == 303 { break }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < changed
        #expect(stale.flatMap(ProxiedBrowser.location)?.hasPrefix("/login") == true, "\(stale?.status ?? 0) \(stale?.head.prefix(300) ?? "")")
    }

    @Test("kill -9 of a host under load: nginx retries the others; no request fails and no session is lost")
    func killUnderLoad() throws {
        let deployment = try Deployment(users: ["alice", "bob"])
        defer { deployment.stop() }
        let browsers = try (0..<4).map { index in
            let browser = ProxiedBrowser(port: deployment.proxy.port)
            try browser.logIn(index % 2 == 0 ? "alice" : "bob")
            return browser
        }
        let victim = deployment.ports[0]
        let count = try Self.readLoad(browsers, seconds: 5) {
            Thread.sleep(forTimeInterval: 1.5)
            deployment.kill(victim)
        }
        print("deployment: kill -9 under load: \(count.served) served, \(count.failed) failed, \(count.lostSessions) sessions lost, longest request \(count.longest)")
        #expect(count.served > 0)
        #expect(count.failed == 0)
        #expect(count.lostSessions == 0)
    }

    @Test("a rolling restart of all three hosts under load: no request fails and no session is lost")
    func rollingRestart() throws {
        let deployment = try Deployment(users: ["alice"])
        defer { deployment.stop() }
        let browsers = try (0..<3).map { _ in
            let browser = ProxiedBrowser(port: deployment.proxy.port)
            try browser.logIn("alice")
            return browser
        }
        // As an operator would: the next host only once the last one serves again and nginx's
        // fail_timeout (1 s) has passed, so nginx never has every host marked down at once.
        let count = try Self.readLoad(browsers, seconds: 12) {
            for port in deployment.ports {
                Thread.sleep(forTimeInterval: 0.5)
                try deployment.restart(port)
                Thread.sleep(forTimeInterval: 1.5)
            }
        }
        print("deployment: rolling restart: \(count.served) served, \(count.failed) failed, \(count.lostSessions) sessions lost, longest request \(count.longest)")
        if count.failed > 0 {
            let statuses = Dictionary(grouping: deployment.proxy.accessLog.map { $0.split(separator: " ").dropFirst().first.map(String.init) ?? "?" }, by: { $0 }).mapValues(\.count)
            print("deployment: nginx statuses \(statuses); errors:\n\(deployment.proxy.errorLog.split(separator: "\n").suffix(8).joined(separator: "\n"))")
        }
        #expect(count.served > 0)
        #expect(count.failed == 0)
        #expect(count.lostSessions == 0)
    }

    @Test("concurrent writes from many sessions while a host is killed: every acknowledged jog is in the database")
    func writesWhileKilled() throws {
        let users = ["alice", "bob", "carol"]
        let deployment = try Deployment(users: users)
        defer { deployment.stop() }
        let writers = try (0..<6).map { index in
            let browser = ProxiedBrowser(port: deployment.proxy.port)
            try browser.logIn(users[index % users.count])
            try browser.get("/jogs/new")
            return (users[index % users.count], browser)
        }
        let acknowledged = Mutex<[String: Set<Int>]>([:])
        let failed = Mutex(0)
        let end = Date().addingTimeInterval(5)
        let group = DispatchGroup()
        for (user, browser) in writers {
            DispatchQueue.global().async(group: group) {
                while Date() < end {
                    if let id = try? browser.addJog(km: "5") {
                        acknowledged.withLock { _ = $0[user, default: []].insert(id) }
                        _ = try? browser.get("/jogs/new")
                    } else {
                        failed.withLock { $0 += 1 }
                        _ = try? browser.get("/jogs/new")
                    }
                }
            }
        }
        Thread.sleep(forTimeInterval: 1.5)
        deployment.kill(deployment.ports[1])
        group.wait()
        let written = acknowledged.withLock { $0 }
        print("deployment: writes while a host is killed: \(written.values.map(\.count).reduce(0, +)) acknowledged, \(failed.withLock { $0 }) not acknowledged")
        #expect(written.values.map(\.count).reduce(0, +) > 0)
        for user in users {
            let stored = try deployment.storedJogs(of: user)
            let missing = (written[user] ?? []).subtracting(stored)
            #expect(missing.isEmpty, "\(user): acknowledged but not stored: \(missing.sorted())")
        }
    }

    @Test("five wrong passwords spread over three hosts lock the account on every host")
    func lockoutAcrossHosts() throws {
        let deployment = try Deployment(users: ["alice"])
        defer { deployment.stop() }
        let browser = ProxiedBrowser(port: deployment.proxy.port)
        try browser.get("/login")
        for _ in 0..<5 {
            let wrong = try browser.post([("_route", "login"), ("_action", "log-in"), ("f.username", "alice"), ("f.password", "not-the-password")])
            #expect(wrong.status == 303)
            try browser.get("/login")
        }
        let hosts = Set(deployment.proxy.accessLog.filter { $0.hasSuffix("/_action") }.compactMap { $0.split(separator: " ").first })
        #expect(hosts.count == 3, "the failures reached \(hosts.sorted())")
        // Now even the right password is refused, whichever host answers.
        for _ in 0..<3 {
            let right = try browser.post([("_route", "login"), ("_action", "log-in"), ("f.username", "alice"), ("f.password", Self.password)])
            #expect(ProxiedBrowser.location(right) != "/jogs")
            #expect(try browser.get("/login").body.contains("Too many failed logins"))
        }
    }
}

/// One den serve on SQLite, restarted: its browser sessions come back from storage.sqlite.
@Suite("den serve restarted on SQLite")
struct RestartOnSQLiteEndToEndTests {
    /// A user, and den serve on private folders at a free port; `start()` starts (again) the same host.
    struct Host {
        let den: DenCommand
        let port: Int
        let environment: [String: String]

        init() throws {
            den = try DenCommand()
            #expect(try den.run(["users", "add", "alice"], input: DeploymentEndToEndTests.password + "\n").status == 0)
            port = try PostgresCluster.freePort()
            environment = ["DEN_DATA_DIR": den.temp.path("data").path, "DEN_CACHE_DIR": den.temp.path("cache").path,
                           "XDG_DATA_HOME": den.temp.path("xdg").path, "DEN_PLUGIN_PATH": ""]
        }

        func start() throws -> ServedDen {
            try ServedDen(BuildProducts.den, arguments: ["serve", "--port", "\(port)"], environment: environment)
        }
    }

    @Test("a restart of den serve logs nobody out: the same cookie is still logged in, on its screen")
    func restart() throws {
        let setup = try Host()
        var host = try setup.start()
        let browser = DeploymentEndToEndTests.ProxiedBrowser(port: setup.port)
        try browser.logIn("alice")
        try browser.get("/jogs/new")
        host.stop()
        host = try setup.start()
        defer { host.stop() }
        let again = try browser.get("/jogs/new")
        #expect(again.status == 200, "\(again.head)")
        #expect(again.body.contains("Log out") || again.body.contains("alice") || !again.body.contains("f.password"), "still logged in")
        #expect(try browser.get("/jogs").status == 200, "the guarded list opens without a login")
    }

    @Test("kill -9 of den serve keeps the last answered step: sessions are saved without waiting for the disk, not without writing")
    func killed() throws {
        let setup = try Host()
        var host = try setup.start()
        let browser = DeploymentEndToEndTests.ProxiedBrowser(port: setup.port)
        try browser.logIn("alice")
        try browser.get("/jogs/new")
        // A save the form refuses: the typed distance lives only in the session's saved screen.
        let refused = try browser.post([("_route", "jogs/new"), ("_action", "save"), ("f.date", "2026-11-20"),
                                        ("f.distance", "7.75"), ("f.duration", "not a time")])
        #expect(refused.status == 303)
        kill(host.process.processIdentifier, SIGKILL)
        host.stop()
        host = try setup.start()
        defer { host.stop() }
        let form = try browser.get("/jogs/new")
        #expect(form.status == 200, "\(form.head)")
        #expect(form.body.contains("value=\"7.75\""), "the typed distance came back after kill -9")
        #expect(form.body.contains("Log out"), "still logged in")
    }
}
