import DenTestSupport
import Foundation
import Synchronization
import Testing

/// A module asks in its manifest for what it may touch beyond its own data; den refuses the rest,
/// in-process and isolated alike, and the user agrees at install (docs/PERMISSIONS.md). The
/// module is C written from den_module.h alone (Tests/Fixtures/shared/perm_probe.h): permprobe
/// 1.0.0 asks for nothing, 2.0.0 for every permission; its export `call` answers "<status> <text>".
@Suite("Permissions: declared, granted, enforced")
struct PermissionsEndToEndTests {
    static let permission = "8" // DEN_ERR_PERMISSION

    /// `den call permprobe.call <service> <request>` with only `libraries` loaded; stdout.
    static func probe(_ den: DenCommand, _ folder: URL, isolated: Bool, _ service: String, _ request: String) throws -> String {
        // Options first: after the export's name every word is one of its arguments.
        var arguments = ["call", "--no-default-modules", "--plugin-dir", folder.path]
        if isolated { arguments += ["--isolate", "permprobe"] }
        arguments += ["permprobe.call", service, request]
        let result = try den.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func status(_ answer: String) -> String { String(answer.prefix { $0 != " " }) }

    @Test("without a permission each service is refused with DEN_ERR_PERMISSION and a message naming it", arguments: [false, true])
    func refusedWithout(isolated: Bool) throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixturePermProbe", "DenFixtureExports"])
        let http = try Self.probe(den, folder, isolated: isolated, "http.get", #"{"url": "http://127.0.0.1:1/"}"#)
        #expect(http.hasPrefix("8 permprobe may not use http (127.0.0.1): its manifest does not ask for it"), "\(http)")
        #expect(http.contains(#""permissions": {"http": ["127.0.0.1"]}"#))
        let plugins = try Self.probe(den, folder, isolated: isolated, "plugins.list", "{}")
        #expect(plugins.hasPrefix("8 permprobe may not use plugins: its manifest does not ask for it"), "\(plugins)")
        #expect(!plugins.contains("libDenFixtureExports"), "no file name leaks")
        let auth = try Self.probe(den, folder, isolated: isolated, "auth.logout", "{}")
        #expect(auth.hasPrefix("8 permprobe may not use auth"), "\(auth)")
        let export = try Self.probe(den, folder, isolated: isolated, "exports.call", #"{"name": "exporter.add", "arguments": [1, 2]}"#)
        #expect(export.hasPrefix("8 permprobe may not use exports (exporter.add)"), "\(export)")
        let listed = try Self.probe(den, folder, isolated: isolated, "exports.list", "{}")
        #expect(listed.hasPrefix("0 "), "\(listed)")
        #expect(listed.contains("permprobe.call") && !listed.contains("exporter.add"), "only its own exports are listed: \(listed)")
        // What every module gets needs no permission.
        let storage = try Self.probe(den, folder, isolated: isolated, "storage.set", #"{"key": "k", "value": "v"}"#)
        #expect(storage.hasPrefix("0 "), "\(storage)")
        let log = try Self.probe(den, folder, isolated: isolated, "log", #"{"level": "info", "message": "hi"}"#)
        #expect(log.hasPrefix("0 "), "\(log)")
    }

    @Test("with each permission the same calls go through", arguments: [false, true])
    func allowedWith(isolated: Bool) throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixturePermProbeGranted", "DenFixtureExports"])
        // Past the gate: the connection itself is refused (DEN_ERR_SERVICE), nothing else.
        let http = try Self.probe(den, folder, isolated: isolated, "http.get", #"{"url": "http://127.0.0.1:1/"}"#)
        #expect(http.hasPrefix("6 http.get http://127.0.0.1:1/ failed: connection refused"), "\(http)")
        let plugins = try Self.probe(den, folder, isolated: isolated, "plugins.list", #"{"fields": ["id"]}"#)
        #expect(plugins.hasPrefix("0 ") && plugins.contains(#""id":"exporter""#), "\(plugins)")
        // Past the gate: logging out needs a UI session, which den call has not.
        let auth = try Self.probe(den, folder, isolated: isolated, "auth.logout", "{}")
        #expect(Self.status(auth) != Self.permission, "\(auth)")
        #expect(!auth.contains("may not use"), "\(auth)")
        let export = try Self.probe(den, folder, isolated: isolated, "exports.call", #"{"name": "exporter.add", "arguments": [1, 2]}"#)
        #expect(export.hasPrefix(#"0 {"result":3"#), "\(export)")
    }

    @Test("a module without a manifest asks for nothing, so it gets only what every module gets")
    func noManifestNoPermissions() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureExports", "DenFixturePermProbeGranted"])
        let result = try den.run(["call", "--no-default-modules", "--plugin-dir", folder.path, "exporter.call_other", "permprobe.call", "x"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("exporter may not use exports (permprobe.call): its manifest does not ask for it"), "\(result.stderr)")
        // Its own exports need no permission.
        let own = try den.run(["call", "--no-default-modules", "--plugin-dir", folder.path, "exporter.call_other", "exporter.greet", "Ada"])
        #expect(own.status == 0, "\(own.stderr)")
    }

    @Test("hostile spellings: another address, an undeclared host in upper case or with a trailing dot, an IDN look-alike, a redirect elsewhere")
    func hostileHosts() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixturePermProbeGranted"])
        let server = try StubHTTPServer()
        defer { server.stop() }
        func get(_ url: String) throws -> String {
            try Self.probe(den, folder, isolated: false, "http.get", #"{"url": "\#(url)"}"#)
        }
        // Declared: 127.0.0.1. The same host with a trailing dot is that host: past the gate.
        #expect(try get(server.url("/ok")).hasPrefix("0 "))
        let dotted = try get(server.url("/ok").replacingOccurrences(of: "127.0.0.1", with: "127.0.0.1."))
        #expect(!dotted.hasPrefix("8 "), "\(dotted)")
        for url in ["http://127.1:1/", "http://0x7f.0.0.1:1/", "http://2130706433:1/", "http://LOCALHOST:1/", "http://localhost:1/",
                    "http://[::1]:1/", "http://127.0.0.1@localhost:1/"] {
            let answer = try get(url)
            #expect(answer.hasPrefix("8 "), "\(url): \(answer)")
        }
        // Named as den would connect to it: lower case, no trailing dot; still not 127.0.0.1.
        for url in ["http://LOCALHOST.:1/", "http://localhost.:1/", "http://LocalHost.:1/"] {
            let answer = try get(url)
            #expect(answer.hasPrefix("8 permprobe may not use http (localhost): its manifest does not ask for it"), "\(url): \(answer)")
        }
        let idn = try get("http://lоcalhost:1/") // a Cyrillic о
        #expect(idn.hasPrefix("8 ") || idn.hasPrefix("1 "), "an IDN look-alike never reaches the network: \(idn)")
        // A redirect on the declared host is followed; one to an undeclared host is refused.
        let same = try get(server.url("/redirect"))
        #expect(same.hasPrefix(#"0 {"body":"aGVsbG8gZnJvbSBzdHVi""#), "hello from stub, base64: \(same)")
        let away = try get(server.url("/away?to=" + server.url("/ok").replacingOccurrences(of: "127.0.0.1", with: "localhost")))
        #expect(away.hasPrefix("8 http.get http://127.0.0.1:"), "\(away)")
        #expect(away.contains("was redirected to localhost: permprobe may not use http (localhost)"), "\(away)")
    }

    @Test("den plugins --inspect prints what a file asks for, as text and JSON; a file that asks for nothing says so")
    func inspectShowsPermissions() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixturePermProbe", "DenFixturePermProbeGranted"])
        let asking = try den.run(["plugins", "--inspect", folder.appendingPathComponent("libDenFixturePermProbeGranted.so").path])
        #expect(asking.status == 0, "\(asking.stderr)")
        #expect(asking.stdout.contains("""
              permissions:
                http: fetch from 127.0.0.1
                exports: call any export of exporter (exporter.*)
                auth: log users in and out, register accounts, change and reset passwords
                plugins: list the installed modules
            """), "\(asking.stdout)")
        let json = try den.run(["plugins", "--inspect", folder.appendingPathComponent("libDenFixturePermProbeGranted.so").path, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        let manifest = try #require(object["manifest"] as? [String: Any], "\(json.stdout)")
        let permissions = try #require(manifest["permissions"] as? [String: Any], "\(json.stdout)")
        #expect(permissions["http"] as? [String] == ["127.0.0.1"])
        #expect(permissions["exports"] as? [String] == ["exporter.*"])
        #expect(permissions["auth"] as? Bool == true && permissions["plugins"] as? Bool == true)
        let modest = try den.run(["plugins", "--inspect", folder.appendingPathComponent("libDenFixturePermProbe.so").path])
        #expect(modest.stdout.contains("  permissions: none beyond its own data (docs/PERMISSIONS.md)"), "\(modest.stdout)")
    }

    @Test("About's screen shows what each loaded module may use")
    func aboutShowsPermissions() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixturePermProbeGranted"])
        let result = try den.run(["render", "about", "--no-default-modules", "--plugin-dir", folder.path, "--trust-policy", "allow"])
        #expect(result.status == 0, "\(result.stderr)")
        // The terminal wraps long lines; the text is whole once they are joined.
        let text = result.stdout.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("may use http(127.0.0.1) exports(exporter.*) auth plugins"), "\(result.stdout)")
        #expect(text.contains("may use plugins"), "About itself asks to list the modules: \(result.stdout)")
    }

    @Test("install asks, a no installs nothing, --yes agrees; an upgrade asking more is asked again; revoke refuses at once")
    func installGrantRevoke() throws {
        let den = try DenCommand()
        let v1 = try den.pluginFolder(["DenFixturePermProbe"]).appendingPathComponent("libDenFixturePermProbe.so")
        let v2 = try den.pluginFolder(["DenFixturePermProbeGranted"]).appendingPathComponent("libDenFixturePermProbeGranted.so")
        // 1.0.0 asks for nothing: installed without a question.
        let first = try den.run(["modules", "install", v1.path, "--trust-policy", "allow"])
        #expect(first.status == 0, "\(first.stderr)")
        // 2.0.0 asks for more: no terminal, no --yes: refused, 1.0.0 stays.
        let refused = try den.run(["modules", "install", v2.path, "--trust-policy", "allow"])
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("permprobe 2.0.0 asks for more than 1.0.0 was granted:"), "\(refused.stdout)")
        #expect(refused.stdout.contains("- http: fetch from 127.0.0.1"))
        #expect(refused.stdout.contains("- auth: log users in and out"))
        #expect(refused.stderr.contains("pass --yes to agree. Nothing was installed."), "\(refused.stderr)")
        let modules = den.temp.path("xdg-data").appendingPathComponent("den/modules")
        #expect(FileManager.default.fileExists(atPath: modules.appendingPathComponent("libDenFixturePermProbe.so").path))
        #expect(!FileManager.default.fileExists(atPath: modules.appendingPathComponent("libDenFixturePermProbeGranted.so").path))
        // --yes agrees and installs.
        let agreed = try den.run(["modules", "install", v2.path, "--trust-policy", "allow", "--yes"])
        #expect(agreed.status == 0, "\(agreed.stderr)")
        let listed = try den.run(["modules", "permissions"])
        #expect(listed.stdout.contains("permprobe 2.0.0 (install "), "\(listed.stdout)")
        #expect(listed.stdout.contains("http(127.0.0.1) exports(exporter.*) auth plugins"))
        let before = try den.run(["call", "--trust-policy", "allow", "permprobe.call", "plugins.list", "{}"])
        #expect(before.stdout.hasPrefix("0 "), "\(before.stdout)\(before.stderr)")
        // Revoked: refused at once, saying it was not granted here; den plugins holds it.
        let revoked = try den.run(["modules", "permissions", "permprobe", "--revoke", "plugins"])
        #expect(revoked.status == 0, "\(revoked.stderr)")
        let after = try den.run(["call", "--trust-policy", "allow", "permprobe.call", "plugins.list", "{}"])
        #expect(after.stdout.hasPrefix("8 permprobe may not use plugins: it was not granted in this data folder"), "\(after.stdout)")
        let plugins = try den.run(["plugins", "--trust-policy", "allow"])
        #expect(plugins.stdout.contains("held: version 2.0.0 asks for more than was granted: plugins: list the installed modules"), "\(plugins.stdout)")
        #expect(plugins.stdout.contains("`den modules grant permprobe` agrees to it"))
        // Granted again: served.
        #expect(try den.run(["modules", "grant", "permprobe", "--yes"]).status == 0)
        #expect(try den.run(["call", "--trust-policy", "allow", "permprobe.call", "plugins.list", "{}"]).stdout.hasPrefix("0 "))
        #expect(try den.run(["plugins", "--trust-policy", "allow"]).stdout.contains("permissions: http: fetch from 127.0.0.1; exports: call any export of exporter (exporter.*); auth: log users in and out"))
        // Removed: its grant goes with it.
        #expect(try den.run(["modules", "remove", "permprobe", "--trust-policy", "allow"]).stdout.contains("Its grant of permissions is withdrawn"))
        #expect(!(try den.run(["modules", "permissions"]).stdout.contains("permprobe")))
    }

    @Test("an upgrade asking for more is held under den serve while 1.0.0 serves every request; a grant swaps it in")
    func heldUpgradeUnderLoad() throws {
        let den = try DenCommand()
        let plugins = try den.pluginFolder(["DenFixturePermProbe"])
        let served = try ServedDen(BuildProducts.den, arguments: [
            "serve", "--watch", "--port", "0", "--no-default-modules", "--plugin-dir", plugins.path, "--trust-policy", "allow",
        ], environment: ["DEN_CACHE_DIR": den.temp.path("cache").path, "DEN_DATA_DIR": den.temp.path("data").path, "DEN_PLUGIN_PATH": ""])
        defer { served.stop() }
        let port = try #require(served.port, "\(served.printed)")
        #expect(try RawHTTP.get(port: port, "/permprobe").body.contains("Probe 1.0.0"))

        // Load from dedicated threads while the new file lands and is held.
        let outcome = Mutex<(served: Int, failed: [String], versions: Set<String>)>((0, [], []))
        let stop = Atomic<Bool>(false)
        let workers = (0..<4).map { _ in
            Thread {
                while !stop.load(ordering: .relaxed) {
                    do {
                        let reply = try RawHTTP.get(port: port, "/permprobe")
                        let version = reply.body.contains("Probe 2.0.0") ? "2.0.0" : reply.body.contains("Probe 1.0.0") ? "1.0.0" : "none"
                        outcome.withLock {
                            if reply.status == 200 && version != "none" { $0.served += 1 } else { $0.failed.append("\(reply.status)") }
                            $0.versions.insert(version)
                        }
                    } catch {
                        outcome.withLock { $0.failed.append("\(error)") }
                    }
                }
            }
        }
        workers.forEach { $0.start() }
        defer { stop.store(true, ordering: .relaxed) }
        let file = plugins.appendingPathComponent("libDenFixturePermProbe.so")
        let upgrade = try BuildProducts.require(BuildProducts.library("DenFixturePermProbeGranted"))
        let staged = plugins.appendingPathComponent(".upgrade.tmp")
        try FileManager.default.copyItem(at: upgrade, to: staged)
        #expect(rename(staged.path, file.path) == 0)
        #expect(Self.wait(seconds: 20) { served.printedSince.contains("held: version 2.0.0 asks for more than was granted") }, "\(served.printedSince)")
        Thread.sleep(forTimeInterval: 1.5)
        let held = outcome.withLock { $0 }
        #expect(held.failed.isEmpty, "\(held.failed.prefix(5))")
        #expect(held.served > 0 && held.versions == ["1.0.0"], "1.0.0 serves while 2.0.0 is held: \(held)")

        let grant = try den.run(["modules", "grant", "permprobe", "--yes", "--no-default-modules", "--plugin-dir", plugins.path])
        #expect(grant.status == 0, "\(grant.stderr)")
        #expect(grant.stdout.contains("Granted permprobe 2.0.0"))
        #expect(Self.wait(seconds: 20) { outcome.withLock { $0.versions.contains("2.0.0") } }, "\(served.printedSince)")
        stop.store(true, ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.5)
        let end = outcome.withLock { $0 }
        #expect(end.failed.isEmpty, "no request failed across the hold and the swap: \(end.failed.prefix(5))")
        #expect(served.printedSince.contains("module grant: "), "\(served.printedSince)")
    }

    @Test("on PostgreSQL the grant is the database's: one host installs, another lists and revokes it, the first is refused")
    func grantsSharedOnPostgres() throws {
        let cluster = try PostgresCluster.shared()
        let url = cluster.url(database: try cluster.makeDatabase("grants"))
        let first = try DenCommand(), second = try DenCommand()
        let file = try first.pluginFolder(["DenFixturePermProbeGranted"]).appendingPathComponent("libDenFixturePermProbeGranted.so")
        let installed = try first.run(["modules", "install", file.path, "--trust-policy", "allow", "--yes", "--database", url])
        #expect(installed.status == 0, "\(installed.stderr)")
        let listed = try second.run(["modules", "permissions", "--database", url])
        #expect(listed.stdout.contains("permprobe 2.0.0 (install "), "\(listed.stdout)\(listed.stderr)")
        #expect(try second.run(["modules", "permissions", "permprobe", "--revoke", "plugins", "--database", url]).status == 0)
        let refused = try first.run(["call", "--database", url, "--trust-policy", "allow", "permprobe.call", "plugins.list", "{}"])
        #expect(refused.stdout.hasPrefix("8 permprobe may not use plugins: it was not granted in this data folder"), "\(refused.stdout)\(refused.stderr)")
        let allowed = try first.run(["call", "--database", url, "--trust-policy", "allow", "permprobe.call", "exports.list", "{}"])
        #expect(allowed.stdout.hasPrefix("0 "), "\(allowed.stdout)")
    }

    @Test("an upgrade asking for more that reaches two den serve hosts through NOTIFY is held on both while 1.0.0 serves; one grant loads it on both")
    func heldUpgradeThroughNotify() throws {
        let cluster = try PostgresCluster.shared()
        let database = try cluster.makeDatabase("heldsync")
        let url = cluster.url(database: database)
        let den = try DenCommand()
        let v1 = try den.pluginFolder(["DenFixturePermProbe"]).appendingPathComponent("libDenFixturePermProbe.so")
        let v2 = try BuildProducts.require(BuildProducts.library("DenFixturePermProbeGranted"))
        // Each host has its own modules folder ($XDG_DATA_HOME/den/modules) and data folder; the
        // database, and so the grants, are shared.
        func environment(_ host: String) -> [String: String] {
            ["XDG_DATA_HOME": den.temp.path("xdg-\(host)").path, "DEN_DATA_DIR": den.temp.path("data-\(host)").path,
             "DEN_CACHE_DIR": den.temp.path("cache-\(host)").path, "DEN_CONFIG_DIR": den.temp.path("config").path,
             "DEN_PLUGIN_PATH": "", "DEN_TRUST_POLICY": ""]
        }
        // 1.0.0 asks for nothing: installed and published from host A, granted nothing.
        let installed = try den.run(["modules", "install", v1.path, "--trust-policy", "allow", "--database", url], environment: environment("a"))
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(installed.stdout.contains("Published the change"), "\(installed.stdout)")
        // A 600 s check: within this test only a notification brings a change.
        let hosts = try ["a", "b"].map { host in
            try ServedDen(BuildProducts.den, arguments: ["serve", "--port", "0", "--database", url, "--module-check-seconds", "600",
                                                         "--trust-policy", "allow"], environment: environment(host))
        }
        defer { hosts.forEach { $0.stop() } }
        func serves(_ host: ServedDen, _ version: String) -> Bool {
            (try? RawHTTP.get(port: host.port ?? 0, "/permprobe"))?.body.contains("Probe \(version)") == true
        }
        for host in hosts {
            #expect(Self.wait(seconds: 10) { serves(host, "1.0.0") }, "caught up at start: \(host.printed)\(host.printedSince)")
        }

        // 2.0.0 published as a den without permissions (before ABI revision 5) publishes: the row and
        // its NOTIFY, no grant. Today's `den modules install` records the grant before it
        // publishes, so the held case needs such a publisher.
        let bytes = try Data(contentsOf: v2).map { String(format: "%02x", $0) }.joined()
        _ = try cluster.sql("""
            UPDATE den_module_files SET bytes = '\\x\(bytes)'::bytea, version = '2.0.0' WHERE module_id = 'permprobe';
            UPDATE den_module_files SET sha256 = encode(sha256(bytes), 'hex') WHERE module_id = 'permprobe';
            NOTIFY den_modules
            """, database: database)
        for host in hosts {
            #expect(Self.wait(seconds: 10) { host.printedSince.contains("held: version 2.0.0 asks for more than was granted") },
                    "\(host.printedSince)")
        }
        for host in hosts {
            #expect(serves(host, "1.0.0"), "1.0.0 keeps serving while 2.0.0 is held: \(host.printedSince)")
        }
        // What den plugins says on host B, whose modules folder now holds 2.0.0.
        let status = try den.run(["plugins", "--trust-policy", "allow", "--database", url], environment: environment("b"))
        #expect(status.stdout.contains("held: version 2.0.0 asks for more than was granted: http: fetch from 127.0.0.1"), "\(status.stdout)")
        #expect(status.stdout.contains("`den modules grant permprobe` agrees to it"), "\(status.stdout)")

        // Granted once, on B: both hosts load 2.0.0 from the shared grant.
        let grant = try den.run(["modules", "grant", "permprobe", "--yes", "--database", url], environment: environment("b"))
        #expect(grant.status == 0, "\(grant.stderr)")
        #expect(grant.stdout.contains("Granted permprobe 2.0.0"), "\(grant.stdout)")
        // Grants are read every two seconds; the bound leaves room for a busy machine.
        for host in hosts {
            #expect(Self.wait(seconds: 10) { serves(host, "2.0.0") }, "\(host.printedSince)")
            #expect(host.printedSince.contains("module grant: "), "\(host.printedSince)")
        }
    }

    static func wait(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return condition()
    }
}
