import DenTestSupport
import Foundation
import Testing

/// Manifests and lazy loading in the real `den` binary. DenFixtureLazyAbort's constructor calls
/// abort(): a `den` that loads it dies, so a run that succeeds beside it never ran its code.
@Suite("den loads a module only when one of its routes is opened")
struct LazyLoadingEndToEndTests {
    @Test("den render about works beside a module whose loading would abort: its code never runs")
    func neverRunsUnopenedModules() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureLazyAbort"])
        let result = try den.run(["render", "about", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("About"), "\(result.stdout)")
        // A second start takes the manifests from the registry cache, and still runs nothing.
        let again = try den.run(["render", "about", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(FileManager.default.fileExists(atPath: den.temp.path("cache/manifests-v5.tsv").path))
    }

    @Test("opening the module's route loads it (and here, its constructor kills den): the fixture does abort")
    func opensOnDemand() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureLazyAbort"])
        let opened = try den.run(["render", "boom", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(opened.status == 6, "SIGABRT from the constructor: \(opened.status) \(opened.stderr)")
        // The crash report starts with the file to blame, before the runtime's backtrace.
        #expect(opened.stderr.hasPrefix("\nden: a module crashed den while loading \(folder.path)/libDenFixtureLazyAbort.so (in its ELF constructors or den_module_entry)"),
                "\(opened.stderr.prefix(400))")
        let eager = try den.run(["render", "about", "--eager", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(eager.status == 6, "--eager loads every module at start: \(eager.status)")
        let byEnvironment = try den.run(["render", "about", "--no-default-modules", "--plugin-dir", folder.path],
                                        environment: ["DEN_EAGER": "1"])
        #expect(byEnvironment.status == 6)
    }

    @Test("den routes lists a lazy module's routes from its manifest without loading it")
    func routesFromManifest() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureLazyAbort"])
        let result = try den.run(["routes", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("boom"), "\(result.stdout)")
    }

    @Test("den plugins --inspect prints a file's manifest without loading it, as text and JSON")
    func inspect() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureLazyAbort", "MainModule"])
        let text = try den.run(["plugins", "--inspect", folder.appendingPathComponent("libDenFixtureLazyAbort.so").path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("id: lazy-abort"), "\(text.stdout)")
        #expect(text.stdout.contains("    boom"), "\(text.stdout)")
        #expect(text.stdout.contains("ABI version: 1 (this den: 1)"), "\(text.stdout)")

        let json = try den.run(["plugins", "--inspect", folder.appendingPathComponent("libMainModule.so").path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let manifest = try #require(document["manifest"] as? [String: Any])
        #expect(manifest["id"] as? String == "main")
        #expect((manifest["settings"] as? [[String: Any]])?.map { $0["name"] as? String } == ["rates_url", "fetch_timeout"])
        #expect((document["problems"] as? [Any])?.isEmpty == true)
    }

    @Test("den plugins --inspect names what is wrong: a refused manifest, a file that is no library")
    func inspectProblems() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureBadManifest"], extra: ["notes.so": Data("hello".utf8)])
        let bad = try den.run(["plugins", "--inspect", folder.appendingPathComponent("libDenFixtureBadManifest.so").path])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("manifest: refused:"), "\(bad.stdout)")
        #expect(bad.stdout.contains("routes"), "\(bad.stdout)")
        let text = try den.run(["plugins", "--inspect", folder.appendingPathComponent("notes.so").path])
        #expect(text.status == 1)
        #expect(text.stderr.contains("not a shared library"), "\(text.stderr)")
        let missing = try den.run(["plugins", "--inspect", folder.appendingPathComponent("nothing.so").path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read the file"), "\(missing.stderr)")
    }

    @Test("den plugins loads everything and shows a manifest mismatch with its fix")
    func pluginsShowsMismatch() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureManifestMismatch"])
        let result = try den.run(["plugins", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(result.stdout.contains("does not match its manifest"), "\(result.stdout)")
        #expect(result.stdout.contains("route 'mismatch/other' was registered but is not in the manifest"), "\(result.stdout)")
        #expect(result.stdout.contains("1 active, 1 failed"), "\(result.stdout)")
    }

    @Test("a lazily installed module that fails to load shows why on its screen; den goes on")
    func lazyFailureScreen() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureManifestMismatch"])
        let result = try den.run(["render", "mismatch", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(result.stdout.contains("Cannot open mismatch"), "\(result.stdout)")
        #expect(result.stdout.contains("does not match its manifest"), "\(result.stdout)")
    }
}
