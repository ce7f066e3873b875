import DenTestSupport
import Foundation
import Testing

/// `den modules sources|search|info` against real catalogs: a folder, the same folder served by
/// a real nginx, and servers that hang or never stop sending (docs/CATALOG.md, "Reading a catalog").
@Suite("Catalog sources: read only what a trusted key signed, never an older index")
struct CatalogSourcesEndToEndTests {
    /// A den with a key `acme`, and a catalog folder holding About and Main signed by it.
    struct Fixture {
        let den: DenCommand
        let folder: URL

        init(modules: [String] = ["AboutModule", "MainModule"]) throws {
            den = try DenCommand()
            folder = den.temp.path("catalog")
            guard try den.run(["keys", "generate", "acme", "--as", "Acme Inc"]).status == 0 else { throw StubServerError("no key") }
            for module in modules { try publish(module) }
        }

        func publish(_ library: String, key: String = "acme", to folder: URL? = nil) throws {
            let result = try den.run(["modules", "publish", BuildProducts.require(BuildProducts.library(library)).path,
                                      "--to", (folder ?? self.folder).path, "--key", key])
            guard result.status == 0 else { throw StubServerError("publish \(library): \(result.stderr)") }
        }

        func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
            try den.run(["modules"] + arguments, input: input, environment: environment)
        }
    }

    @Test("a folder: added once signed by a trusted key, then searched by words and shown version by version")
    func folder() throws {
        let fixture = try Fixture()
        let added = try fixture.run(["sources", "add", fixture.folder.path])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Added \(fixture.folder.path): 2 module(s), 2 version(s), index serial 2, signed by Acme Inc"), "\(added.stdout)")
        #expect(try fixture.run(["sources", "add", fixture.folder.path]).stdout.contains("is a source already"))
        #expect(try fixture.run(["sources"]).stdout.contains("\(fixture.folder.path)  key "))

        let search = try fixture.run(["search", "CURRENCY"])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.hasPrefix("main 1.0.0  Currency converter"), "\(search.stdout)")
        #expect(!search.stdout.contains("about"))
        #expect(try fixture.run(["search"]).stdout.split(separator: "\n").count == 2)
        #expect(try fixture.run(["search", "nothing-like-it"]).stdout.contains("No module matches"))

        let info = try fixture.run(["info", "main"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("main in \(fixture.folder.path), signed by Acme Inc"), "\(info.stdout)")
        #expect(info.stdout.contains("  1.0.0  Currency converter"))
        #expect(info.stdout.contains("requires: nothing"))
        #expect(info.stdout.contains("asks to: http: fetch from www.ecb.europa.eu"), "\(info.stdout)")
        let unknown = try fixture.run(["info", "nosuch"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no catalog has a module 'nosuch'"))

        #expect(try fixture.run(["sources", "remove", fixture.folder.path + "/"]).stdout.contains("Removed \(fixture.folder.path)."))
        let none = try fixture.run(["search"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no catalog sources; add one with den modules sources add"))
    }

    @Test("the same catalog served by nginx reads the same")
    func overNginx() throws {
        let fixture = try Fixture()
        let nginx = try NginxProxy(serving: fixture.folder, under: "/catalog/")
        let address = "http://127.0.0.1:\(nginx.port)/catalog"
        let added = try fixture.run(["sources", "add", address + "/"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Added \(address): 2 module(s)"), "\(added.stdout)")
        #expect(try fixture.run(["search", "currency"]).stdout.contains("main 1.0.0"))
        let wrong = try fixture.run(["sources", "add", "http://127.0.0.1:\(nginx.port)/elsewhere"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("answered 404 (not a catalog there?)"), "\(wrong.stderr)")
    }

    @Test("an index older than one read before is refused: an old index cannot be replayed to force a downgrade")
    func replay() throws {
        let fixture = try Fixture()
        let index = fixture.folder.appendingPathComponent("index.json"), signature = fixture.folder.appendingPathComponent("index.json.minisig")
        let (oldIndex, oldSignature) = (try Data(contentsOf: index), try Data(contentsOf: signature))
        try fixture.publish("LoginModule")
        #expect(try fixture.run(["sources", "add", fixture.folder.path]).status == 0)
        try oldIndex.write(to: index)
        try oldSignature.write(to: signature)
        let replayed = try fixture.run(["search"])
        #expect(replayed.status == 1)
        #expect(replayed.stderr.contains("offers index serial 2, older than serial 3 den read there before"), "\(replayed.stderr)")
    }

    @Test("a catalog signed by a key not on the trust list, or revoked, or changed after signing, is read not at all")
    func untrusted() throws {
        let fixture = try Fixture()
        // A stranger's catalog: made with a key in another config folder.
        let stranger = fixture.den.temp.path("stranger-config")
        #expect(try fixture.den.run(["keys", "generate", "eve", "--as", "Eve"], environment: ["DEN_CONFIG_DIR": stranger.path]).status == 0)
        let theirs = fixture.den.temp.path("their-catalog")
        let published = try fixture.den.run(["modules", "publish", BuildProducts.require(BuildProducts.library("AboutModule")).path,
                                             "--to", theirs.path, "--key", "eve"], environment: ["DEN_CONFIG_DIR": stranger.path])
        #expect(published.status == 0, "\(published.stderr)")
        let strange = try fixture.run(["sources", "add", theirs.path])
        #expect(strange.status == 1)
        #expect(strange.stderr.contains("which is not on your trust list"), "\(strange.stderr)")

        #expect(try fixture.run(["sources", "add", fixture.folder.path]).status == 0)
        let indexURL = fixture.folder.appendingPathComponent("index.json")
        try String(contentsOf: indexURL, encoding: .utf8).replacingOccurrences(of: "www.ecb.europa.eu", with: "evil.example.org")
            .write(to: indexURL, atomically: true, encoding: .utf8)
        let tampered = try fixture.run(["info", "main"])
        #expect(tampered.status == 1)
        #expect(tampered.stderr.contains("index.json does not match its signature"), "\(tampered.stderr)")
        #expect(!tampered.stdout.contains("evil.example.org"))

        let keys = try fixture.den.run(["keys", "list"])
        let keyID = try #require(keys.stdout.split(separator: "\n").first { $0.contains("Acme Inc") }?
            .split(separator: " ").first { $0.count == 16 && $0.allSatisfy(\.isHexDigit) }, "\(keys.stdout)")
        #expect(try fixture.den.run(["keys", "revoke", String(keyID)]).status == 0)
        let revoked = try fixture.run(["sources", "add", fixture.den.temp.path("catalog").path])
        #expect(revoked.stdout.contains("is a source already") || revoked.status == 1)
        let search = try fixture.run(["search"])
        #expect(search.status == 1)
        #expect(search.stderr.contains("which you revoked"), "\(search.stderr)")
    }

    @Test("a server that hangs, or sends without end, is given up on with the reason", arguments: ["hang", "endless"])
    func hostile(path: String) throws {
        let fixture = try Fixture(modules: [])
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/hostile_http_server.py")
        let server = try Spawned(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path], environment: ProcessInfo.processInfo.environment)
        defer {
            try? server.input.close()
            server.terminate()
            _ = server.wait()
        }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = server.output.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let port = try #require(Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        let started = Date()
        let result = try fixture.run(["sources", "add", "http://127.0.0.1:\(port)/\(path)"], environment: ["DEN_CATALOG_TIMEOUT": "2"])
        #expect(result.status == 1)
        #expect(Date().timeIntervalSince(started) < 20)
        let reason = path == "hang" ? "sent no whole answer within 2 s" : "sent more than 16777216 bytes"
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(!(try fixture.run(["sources"]).stdout.contains("127.0.0.1:\(port)")), "nothing was added")
    }
}

/// `den modules install <id>[@range]` from the catalogs: resolved, fetched, held to the signed
/// index, installed dependencies first (docs/CATALOG.md, "Installing by name").
@Suite("Installing by name from a catalog")
struct CatalogInstallEndToEndTests {
    typealias Fixture = CatalogSourcesEndToEndTests.Fixture

    func userFolder(_ fixture: Fixture) -> URL { fixture.den.temp.path("xdg-data/den/modules") }

    func installed(_ fixture: Fixture) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: userFolder(fixture).path)) ?? []).filter { $0.hasSuffix(".so") }.sorted()
    }

    @Test("by name, from nginx: the newest version that fits, checked against the index, signed by the catalog's publisher; again, nothing to do")
    func byName() throws {
        let fixture = try Fixture()
        let nginx = try NginxProxy(serving: fixture.folder, under: "/catalog/")
        #expect(try fixture.run(["sources", "add", "http://127.0.0.1:\(nginx.port)/catalog"]).status == 0)
        let install = try fixture.run(["install", "main@^1", "--yes"], environment: ["DEN_TRUST_POLICY": "require-signature"])
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stdout.contains("install main 1.0.0: Installed main 1.0.0 as "), "\(install.stdout)")
        #expect(install.stdout.contains("signed by Acme Inc"), "\(install.stdout)")
        #expect(installed(fixture) == ["main-1.0.0.so"])
        #expect(!install.stdout.contains("\u{1B}"), "no progress line when piped")
        let again = try fixture.run(["install", "main", "--yes"], environment: ["DEN_TRUST_POLICY": "require-signature"])
        #expect(again.stdout.contains("main 1.0.0 is installed already and fits main; nothing to do."), "\(again.stdout)")

        // With the build folder's own Main running (policy allow), main is there already.
        let bundled = try fixture.run(["install", "main", "--yes"], environment: ["DEN_TRUST_POLICY": "allow"])
        #expect(bundled.stdout.contains("nothing to do"), "\(bundled.stdout)\(bundled.stderr)")
    }

    @Test("a range no version fits is refused naming what the catalog has; nothing is installed")
    func unsatisfiable() throws {
        let fixture = try Fixture()
        #expect(try fixture.run(["sources", "add", fixture.folder.path]).status == 0)
        let result = try fixture.run(["install", "main@^2", "--yes"], environment: ["DEN_TRUST_POLICY": "require-signature"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot install main@^2: you asked for main ^2, but the catalog has main 1.0.0"), "\(result.stderr)")
        #expect(installed(fixture).isEmpty)
        let bad = try fixture.run(["install", "main@^^1"])
        #expect(bad.status == 64, "\(bad.stderr)")
    }

    @Test("a file whose bytes differ from what the signed index names is refused; nothing is installed")
    func swappedFile() throws {
        let fixture = try Fixture()
        #expect(try fixture.run(["sources", "add", fixture.folder.path]).status == 0)
        // The same size, one byte changed: only the hash tells.
        let main = fixture.folder.appendingPathComponent("files/main/main-1.0.0.so")
        var bytes = try Data(contentsOf: main)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: main)
        let result = try fixture.run(["install", "main", "--yes"], environment: ["DEN_TRUST_POLICY": "require-signature"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("has SHA-256") && result.stderr.contains("the file was changed or swapped"), "\(result.stderr)")
        #expect(installed(fixture).isEmpty)
    }

    @Test("a manifest's requires: permprobe 3.0.0 requires main ^1, so installing it brings main first; why names it, and removing main is refused until forced")
    func manifestRequires() throws {
        let fixture = try Fixture(modules: ["MainModule", "DenFixturePermProbeRequires"])
        #expect(try fixture.run(["sources", "add", fixture.folder.path]).status == 0)
        #expect(try fixture.run(["info", "permprobe"]).stdout.contains("requires: main ^1"))
        let install = try fixture.run(["install", "permprobe", "--yes"], environment: CatalogUpdateEndToEndTests.signed)
        #expect(install.status == 0, "\(install.stderr)")
        let steps = install.stdout.split(separator: "\n").filter { $0.hasPrefix("install ") }.map { $0.prefix(24) }
        #expect(steps == ["install main 1.0.0: Inst", "install permprobe 3.0.0:"], "\(install.stdout)")

        let why = try fixture.run(["why", "main"], environment: CatalogUpdateEndToEndTests.signed)
        #expect(why.stdout.contains("permprobe 3.0.0 requires main ^1"), "\(why.stdout)\(why.stderr)")
        #expect(try fixture.run(["why", "permprobe"], environment: CatalogUpdateEndToEndTests.signed).stdout.contains("nothing requires permprobe"))

        let refused = try fixture.run(["remove", "main"], environment: CatalogUpdateEndToEndTests.signed)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("main is required by permprobe 3.0.0 (main ^1); remove that module first, or --force"), "\(refused.stderr)")
        #expect(installed(fixture) == ["main-1.0.0.so", "permprobe-3.0.0.so"])
        let forced = try fixture.run(["remove", "main", "--force"], environment: CatalogUpdateEndToEndTests.signed)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(installed(fixture) == ["permprobe-3.0.0.so"])
    }

    @Test("what a module requires is installed first: about, whose index entry requires main ^1, brings main")
    func dependencies() throws {
        let fixture = try Fixture()
        // The index as a publisher whose about requires main would write it, signed again with
        // Debian's minisign and the same key.
        let indexURL = fixture.folder.appendingPathComponent("index.json")
        var index = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: indexURL)) as? [String: Any])
        var modules = try #require(index["modules"] as? [String: Any])
        var about = try #require(modules["about"] as? [[String: Any]])
        var manifest = try #require(about[0]["manifest"] as? [String: Any])
        manifest["requires"] = ["main": "^1"]
        about[0]["manifest"] = manifest
        modules["about"] = about
        index["modules"] = modules
        let serial = try #require(index["serial"] as? Int) + 1
        index["serial"] = serial
        try JSONSerialization.data(withJSONObject: index, options: [.sortedKeys]).write(to: indexURL)
        let sign = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/minisign"),
                                         ["-S", "-s", fixture.den.temp.path("config/keys/acme.key").path, "-t", "den-catalog serial=\(serial)",
                                          "-m", indexURL.path, "-x", indexURL.path + ".minisig"], input: "\n")
        #expect(sign.status == 0, "\(sign.stdout)\(sign.stderr)")
        #expect(try fixture.run(["sources", "add", fixture.folder.path]).status == 0)
        #expect(try fixture.run(["info", "about"]).stdout.contains("requires: main ^1"))
        // Under require-signature the build folder's unsigned About and Main do not run, so
        // neither is installed yet as far as this den is concerned.
        let install = try fixture.run(["install", "about", "--yes"], environment: ["DEN_TRUST_POLICY": "require-signature"])
        #expect(install.status == 0, "\(install.stderr)")
        let lines = install.stdout.split(separator: "\n").filter { $0.hasPrefix("install ") }
        #expect(lines.map { $0.prefix(20) } == ["install main 1.0.0: ", "install about 1.0.0:"], "main first: \(install.stdout)")
        #expect(installed(fixture) == ["about-1.0.0.so", "main-1.0.0.so"])
    }
}

/// `den modules outdated`, `update` and `pin` on a catalog holding permprobe 1.0.0 and 2.0.0
/// (two builds of one C fixture; 2.0.0 asks for more).
@Suite("Keeping catalog modules current: outdated, update, pin")
struct CatalogUpdateEndToEndTests {
    typealias Fixture = CatalogSourcesEndToEndTests.Fixture
    static let signed = ["DEN_TRUST_POLICY": "require-signature"]

    @Test("outdated names the newer version; a pin holds the module there; without it, update moves it and asks for what it asks more")
    func outdatedUpdatePin() throws {
        let fixture = try Fixture(modules: ["DenFixturePermProbe", "DenFixturePermProbeGranted"])
        #expect(try fixture.run(["sources", "add", fixture.folder.path]).status == 0)
        let first = try fixture.run(["install", "permprobe@^1", "--yes"], environment: Self.signed)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("install permprobe 1.0.0: Installed permprobe 1.0.0"), "\(first.stdout)")

        let outdated = try fixture.run(["outdated"], environment: Self.signed)
        #expect(outdated.status == 0, "\(outdated.stderr)")
        #expect(outdated.stdout.contains("permprobe 1.0.0 → 2.0.0 (\(fixture.folder.path))"), "\(outdated.stdout)")

        #expect(try fixture.run(["pin", "permprobe@1.0.0"]).stdout.contains("permprobe is pinned at 1.0.0."))
        #expect(try fixture.run(["pin"]).stdout.contains("permprobe 1.0.0"))
        #expect(try fixture.run(["outdated"], environment: Self.signed).stdout.contains("; pinned at 1.0.0"))
        let held = try fixture.run(["update", "permprobe", "--yes"], environment: Self.signed)
        #expect(held.stdout.contains("nothing to do"), "\(held.stdout)\(held.stderr)")
        #expect(try fixture.run(["pin", "main"]).status == 1, "not id@version")

        #expect(try fixture.run(["pin", "--remove", "permprobe"]).stdout.contains("no longer pinned"))
        let declined = try fixture.run(["update", "permprobe"], input: "n\n", environment: Self.signed)
        #expect(declined.status == 1, "2.0.0 asks for more, and the answer was no: \(declined.stdout)")
        #expect(declined.stdout.contains("permprobe 2.0.0 asks for more than 1.0.0 was granted"), "\(declined.stdout)")
        let update = try fixture.run(["update", "--yes"], environment: Self.signed)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.contains("upgrade permprobe 1.0.0 → 2.0.0: Replaced permprobe 2.0.0"), "\(update.stdout)")
        #expect(try fixture.run(["outdated"], environment: Self.signed).stdout.contains("Every module den runs is at the newest version"))
        let files = try FileManager.default.contentsOfDirectory(atPath: fixture.den.temp.path("xdg-data/den/modules").path).filter { $0.hasSuffix(".so") }
        #expect(files == ["permprobe-2.0.0.so"], "the old version's file is gone")
    }
}
