import DenTestSupport
import Foundation
import Testing

/// `den modules install|remove` on real module files, with a private modules folder.
@Suite("den modules install and remove")
struct ModulesInstallEndToEndTests {
    private func userFolder(_ den: DenCommand) -> URL { den.temp.path("xdg-data/den/modules") }

    @Test("a module is checked, copied into the modules folder, loaded by every den, replaced, and removed")
    func installAndRemove() throws {
        let den = try DenCommand()
        let source = try den.pluginFolder(["DenFixtureGuardedRoute"])
        let file = source.appendingPathComponent("libDenFixtureGuardedRoute.so")

        let install = try den.run(["modules", "install", file.path])
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stdout.contains("Installed guarded"), "\(install.stdout)")
        #expect(FileManager.default.fileExists(atPath: userFolder(den).appendingPathComponent(file.lastPathComponent).path))

        let render = try den.run(["render", "lobby"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("Lobby"), "loaded from the modules folder without --plugin-dir: \(render.stdout)")

        let again = try den.run(["modules", "install", file.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("Replaced guarded"), "\(again.stdout)")

        let remove = try den.run(["modules", "remove", "guarded"])
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(!FileManager.default.fileExists(atPath: userFolder(den).appendingPathComponent(file.lastPathComponent).path))
        let gone = try den.run(["render", "lobby"])
        #expect(gone.status == 1)
    }

    @Test("install refuses what would not load, copying nothing", arguments: [
        ("DenFixtureWrongABI", "ABI version"),
        ("DenFixtureToolchain", "another Swift toolchain"),
        ("DenFixtureBadManifest", "manifest"),
        ("DenFixtureManifestMismatch", "does not match its manifest"),
        ("DenFixtureConflictingRoute", "conflict"),
    ])
    func refuses(fixture: String, expected: String) throws {
        let den = try DenCommand()
        let source = try den.pluginFolder([fixture])
        let result = try den.run(["modules", "install", source.appendingPathComponent("lib\(fixture).so").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        let copied = (try? FileManager.default.contentsOfDirectory(atPath: userFolder(den).path)) ?? []
        #expect(copied.isEmpty, "nothing was copied: \(copied)")
    }

    @Test("a refused module's own log lines are shown with the refusal: often they say the real reason")
    func showsWhatTheModuleLogged() throws {
        let den = try DenCommand()
        let source = try den.pluginFolder(["DenFixtureEntryFails", "DenFixtureGuardedRoute"])
        let result = try den.run(["modules", "install", source.appendingPathComponent("libDenFixtureEntryFails.so").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("returned DEN_ERR_SERVICE (6)"), "\(result.stderr)")
        // Before the refusal, whose fix text points up at them.
        #expect(result.stderr.hasPrefix("The module logged while it loaded:\n  [error] FAILING_API_KEY is not set; set it and start den again\nError: "),
                "\(result.stderr)")

        // A module that loads logs nothing into the output, and nothing of one module is
        // shown for another.
        let fine = try den.run(["modules", "install", source.appendingPathComponent("libDenFixtureGuardedRoute.so").path])
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(!fine.stdout.contains("logged") && !fine.stderr.contains("FAILING_API_KEY"), "\(fine.stdout)\(fine.stderr)")
    }

    @Test("install refuses a second copy of a bundled module's id, naming the installed file")
    func duplicateOfBundled() throws {
        let den = try DenCommand()
        let source = try den.pluginFolder(["AboutModule"])
        let result = try den.run(["modules", "install", source.appendingPathComponent("libAboutModule.so").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("module id 'about' is already provided by"), "\(result.stderr)")
    }

    @Test("remove names what it can remove when the id is unknown, and refuses a bundled module")
    func removeUnknown() throws {
        let den = try DenCommand()
        let unknown = try den.run(["modules", "remove", "weather"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no module 'weather'"), "\(unknown.stderr)")
        let bundled = try den.run(["modules", "remove", "about"])
        #expect(bundled.status == 1)
        #expect(bundled.stderr.contains("bundled with den"), "\(bundled.stderr)")
    }
}
