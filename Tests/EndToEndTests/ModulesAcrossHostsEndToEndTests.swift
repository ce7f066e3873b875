import DenTestSupport
import Foundation
import Testing

/// Modules across hosts on one PostgreSQL database: `den modules install|remove` on one host
/// publishes the file; every `den serve` follows it through `NOTIFY`, and a check at start and
/// on a timer catches up what it missed. Each host has its own modules folder.
@Suite("Modules across hosts on PostgreSQL")
struct ModulesAcrossHostsEndToEndTests {
    final class Hosts: @unchecked Sendable {
        let den: DenCommand
        let cluster: PostgresCluster
        let url: String
        let database: String
        let fixture: SwapFixture

        init() throws {
            den = try DenCommand()
            cluster = try PostgresCluster.shared()
            database = try cluster.makeDatabase("modules")
            url = cluster.url(database: database)
            fixture = try SwapFixture()
        }

        func folder(_ host: String) -> URL { den.temp.path("xdg-\(host)/den/modules") }

        /// The swap fixture of `version`, under the file name every version keeps.
        func module(version: Int) throws -> URL {
            let folder = den.temp.path("v\(version)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("libSwapModule.so")
            if !FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.copyItem(at: try fixture.library(["-DSWAP_VERSION=\(version)"]), to: file)
            }
            return file
        }

        /// `den modules …` run as `host` (its own modules folder), publishing to the database.
        func modules(_ arguments: [String], on host: String) throws -> ProcessResult {
            try den.run(["modules"] + arguments + ["--database", url], environment: ["XDG_DATA_HOME": den.temp.path("xdg-\(host)").path])
        }

        func serve(_ host: String, checkSeconds: String, extra: [String] = [], environment: [String: String] = [:]) throws -> ServedDen {
            let served = try ServedDen(BuildProducts.den, arguments: ["serve", "--port", "0", "--database", url, "--module-check-seconds", checkSeconds] + extra, environment: [
                "DEN_DATA_DIR": den.temp.path("data-\(host)").path, "DEN_CACHE_DIR": den.temp.path("cache-\(host)").path,
                "XDG_DATA_HOME": den.temp.path("xdg-\(host)").path, "DEN_PLUGIN_PATH": "",
            ].merging(environment) { $1 })
            guard served.port != nil else { throw ClusterFailure("den serve (\(host)) did not start: \(served.printed)") }
            return served
        }

        /// Polls `host`'s screen of the swap route until it shows `text`; the seconds it took, or nil.
        func wait(_ host: ServedDen, shows text: String, seconds: Double) -> Double? {
            let start = Date()
            while Date().timeIntervalSince(start) < seconds {
                if let reply = try? RawHTTP.get(port: host.port ?? 0, "/_screen/swap"), reply.body.contains(text) {
                    return Date().timeIntervalSince(start)
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return nil
        }
    }

    @Test("an install on host A reaches a running host B through NOTIFY, and a host started later catches up at start")
    func installReachesOtherHosts() throws {
        let hosts = try Hosts()
        let first = try hosts.modules(["install", hosts.module(version: 1).path], on: "a")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Published the change"), "\(first.stdout)")

        // B was not running during the install: its check at start fetches it.
        let b = try hosts.serve("b", checkSeconds: "600")
        #expect(hosts.wait(b, shows: "swap v1", seconds: 10) != nil, "B caught up at start: \(b.printed)")

        // With a 600 s timer, only the notification can bring v2 within the bound.
        let second = try hosts.modules(["install", hosts.module(version: 2).path], on: "a")
        #expect(second.status == 0, "\(second.stderr)")
        let took = hosts.wait(b, shows: "swap v2", seconds: 10)
        #expect(took != nil, "B swapped v2 in after the notification")
        let installed = try Data(contentsOf: hosts.folder("b").appendingPathComponent("libSwapModule.so"))
        #expect(installed == (try Data(contentsOf: hosts.module(version: 2))), "B's modules folder holds v2's bytes")

        // Publishing the same bytes again changes nothing and notifies nobody.
        let again = try hosts.modules(["install", hosts.module(version: 2).path], on: "a")
        #expect(again.stdout.contains("already had this"), "\(again.stdout)")
        b.stop()
    }

    @Test("a module den serve --watch swaps in from its own folder is published, and the other host follows")
    func watchedSwapIsPublished() throws {
        let hosts = try Hosts()
        #expect(try hosts.modules(["install", hosts.module(version: 1).path], on: "a").status == 0)
        let a = try hosts.serve("a", checkSeconds: "600", extra: ["--watch"])
        let b = try hosts.serve("b", checkSeconds: "600")
        #expect(hosts.wait(a, shows: "swap v1", seconds: 10) != nil)
        #expect(hosts.wait(b, shows: "swap v1", seconds: 10) != nil)
        _ = try hosts.fixture.install(["-DSWAP_VERSION=2"], into: hosts.folder("a"))
        #expect(hosts.wait(a, shows: "swap v2", seconds: 10) != nil, "A swapped v2 in from its folder")
        #expect(hosts.wait(b, shows: "swap v2", seconds: 10) != nil, "B followed A's publication")
        #expect(try hosts.cluster.sql("SELECT version FROM den_module_files WHERE module_id = 'swap'", database: hosts.database) == "2.0.0")
        a.stop(); b.stop()
    }

    @Test("a host that missed the notification catches up on its timer")
    func catchUpOnTimer() throws {
        let hosts = try Hosts()
        #expect(try hosts.modules(["install", hosts.module(version: 1).path], on: "a").status == 0)
        let b = try hosts.serve("b", checkSeconds: "1")
        #expect(hosts.wait(b, shows: "swap v1", seconds: 10) != nil)
        // Published without NOTIFY (as if B had been disconnected when it was sent).
        let v3 = try Data(contentsOf: hosts.module(version: 3)).map { String(format: "%02x", $0) }.joined()
        _ = try hosts.cluster.sql("""
            UPDATE den_module_files SET bytes = '\\x\(v3)'::bytea WHERE module_id = 'swap';
            UPDATE den_module_files SET sha256 = encode(sha256(bytes), 'hex'), version = '3.0.0' WHERE module_id = 'swap'
            """, database: hosts.database)
        #expect(hosts.wait(b, shows: "swap v3", seconds: 10) != nil, "the 1 s check found v3")
        b.stop()
    }

    @Test("a garbage or damaged row never replaces a working module", arguments: [
        // Not a library at all, with a matching SHA-256: the load checks refuse it.
        "bytes = '\\x7f454c46deadbeef'::bytea, sha256 = encode(sha256('\\x7f454c46deadbeef'::bytea), 'hex')",
        // Bytes that do not hash to the published SHA-256.
        "bytes = '\\x00'::bytea, sha256 = repeat('ab', 32)",
    ])
    func garbageRow(change: String) throws {
        let hosts = try Hosts()
        #expect(try hosts.modules(["install", hosts.module(version: 1).path], on: "a").status == 0)
        let b = try hosts.serve("b", checkSeconds: "0.5")
        #expect(hosts.wait(b, shows: "swap v1", seconds: 10) != nil)
        _ = try hosts.cluster.sql("UPDATE den_module_files SET \(change), version = '9.9.9' WHERE module_id = 'swap'; NOTIFY den_modules",
                                  database: hosts.database)
        Thread.sleep(forTimeInterval: 2) // four checks, and the notification
        #expect(hosts.wait(b, shows: "swap v1", seconds: 1) != nil, "v1 keeps serving")
        let log = b.printedSince
        #expect(log.components(separatedBy: "module sync: refused module 'swap' 9.9.9").count == 2, "said once, not on every check: \(log)")
        #expect(log.contains("The version this den has keeps serving"), "\(log)")
        let kept = try Data(contentsOf: hosts.folder("b").appendingPathComponent("libSwapModule.so"))
        #expect(kept == (try Data(contentsOf: hosts.module(version: 1))), "B's file is still v1")
        let hidden = try FileManager.default.contentsOfDirectory(atPath: hosts.folder("b").path)
        #expect(hidden == ["libSwapModule.so"], "no partial file is left behind: \(hidden)")

        // A good version published afterwards is taken.
        #expect(try hosts.modules(["install", hosts.module(version: 2).path], on: "a").status == 0)
        #expect(hosts.wait(b, shows: "swap v2", seconds: 10) != nil)
        b.stop()
    }

    @Test("a removal on host A removes B's copy; B serves the version it loaded until it stops")
    func removalReachesOtherHosts() throws {
        let hosts = try Hosts()
        #expect(try hosts.modules(["install", hosts.module(version: 1).path], on: "a").status == 0)
        let b = try hosts.serve("b", checkSeconds: "600")
        #expect(hosts.wait(b, shows: "swap v1", seconds: 10) != nil)
        let removed = try hosts.modules(["remove", "swap"], on: "a")
        #expect(removed.status == 0, "\(removed.stderr)")
        let file = hosts.folder("b").appendingPathComponent("libSwapModule.so").path
        let deadline = Date().addingTimeInterval(10)
        while FileManager.default.fileExists(atPath: file), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!FileManager.default.fileExists(atPath: file), "B's copy is removed")
        b.stop()

        // A host started afterwards does not get it.
        let c = try hosts.serve("c", checkSeconds: "600")
        Thread.sleep(forTimeInterval: 1)
        #expect(!FileManager.default.fileExists(atPath: hosts.folder("c").appendingPathComponent("libSwapModule.so").path))
        c.stop()
    }

    /// One browser's cookie and CSRF token, on whichever host it is sent to.
    final class Visitor {
        var cookie: String?
        var csrf: String?

        func get(_ host: ServedDen, _ path: String) throws -> RawHTTP.Reply {
            let reply = try RawHTTP.get(port: host.port ?? 0, path, cookie: cookie)
            if let fresh = reply.sessionCookie { cookie = fresh }
            if let range = reply.body.range(of: #"name="_csrf" value=""#) {
                csrf = String(reply.body[range.upperBound...].prefix { $0 != "\"" })
            }
            return reply
        }

        func press(_ host: ServedDen, _ action: String, on route: String) throws -> RawHTTP.Reply {
            let reply = try RawHTTP.post(port: host.port ?? 0, "/_action", form: "_csrf=\(csrf ?? "")&_route=\(route)&_action=\(action)", cookie: cookie ?? "")
            if let fresh = reply.sessionCookie { cookie = fresh }
            return reply
        }
    }

    @Test("mid-upgrade: a session's screen moves to the new version with its state; a host on the new version restores a snapshot saved elsewhere; a host still on an old version that refuses it starts the screen fresh")
    func sessionsDuringAnUpgrade() throws {
        let hosts = try Hosts()
        #expect(try hosts.modules(["install", hosts.module(version: 1).path], on: "a").status == 0)
        let b = try hosts.serve("b", checkSeconds: "600")
        #expect(hosts.wait(b, shows: "swap v1", seconds: 10) != nil)
        let visitor = Visitor()
        _ = try visitor.get(b, "/swap")
        _ = try visitor.press(b, "add", on: "swap")
        #expect(try visitor.get(b, "/_screen/swap").body.contains("count 1"), "v1 added 1")

        #expect(try hosts.modules(["install", hosts.module(version: 2).path], on: "a").status == 0)
        #expect(hosts.wait(b, shows: "swap v2", seconds: 10) != nil)
        let swapped = try visitor.get(b, "/_screen/swap").body
        #expect(swapped.contains("swap v2") && swapped.contains("count 1"), "the hot swap kept the session's count: \(swapped)")

        // Another host on v2 that never held this session: restored from its saved snapshot.
        let d = try hosts.serve("d", checkSeconds: "600")
        #expect(hosts.wait(d, shows: "swap v2", seconds: 10) != nil)
        // The first page shows the screen as it was last saved (count 1); the state went to v2:
        // its "add" adds 2.
        let restored = try visitor.get(d, "/_screen/swap").body
        #expect(restored.contains("count 1"), "restored on another host: \(restored)")
        _ = try visitor.press(d, "add", on: "swap")
        let next = try visitor.get(d, "/_screen/swap").body
        #expect(next.contains("swap v2") && next.contains("count 3"), "v2 restored count 1 and added 2: \(next)")

        // A host not upgraded (its own folder, following nothing) whose version refuses the state.
        let old = hosts.den.temp.path("old")
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try hosts.fixture.library(["-DSWAP_VERSION=1", "-DRESTORE_FAILS"]), to: old.appendingPathComponent("libSwapModule.so"))
        let c = try hosts.serve("c", checkSeconds: "600", extra: ["--plugin-dir", old.path], environment: ["DEN_NO_DEFAULT_MODULES": "1"])
        let fresh = try visitor.get(c, "/_screen/swap").body
        #expect(fresh.contains("swap v1") && fresh.contains("count 0"), "the old version starts the screen fresh: \(fresh)")
        b.stop(); c.stop(); d.stop()
    }
}
