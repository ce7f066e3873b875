import DenTestSupport
import Foundation
import Testing

/// Scripts/install.sh, run against the already-built folder (`--from`, so the test does not
/// spend minutes on a release build), then the installed den started from PATH as a user would.
@Suite("Scripts/install.sh and the installed den")
struct InstallEndToEndTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Scripts/install.sh").standardizedFileURL

    /// Installs into a fresh prefix and returns it.
    func install(_ den: DenCommand) throws -> URL {
        let prefix = den.temp.path("prefix with space")
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"),
                                           [Self.script.path, "--prefix", prefix.path, "--from", BuildProducts.directory.path],
                                           timeout: 120)
        #expect(result.status == 0, "install.sh failed: \(result.stderr)")
        #expect(result.stdout.contains("Installed den 1.0.0"))
        return prefix
    }

    /// Runs `den` as found on PATH (through env), with private cache, data and user folders.
    func runFromPath(_ den: DenCommand, path: URL, _ arguments: [String], input: String? = nil) throws -> ProcessResult {
        try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["den"] + arguments, input: input, environment: [
            "PATH": "\(path.path):/usr/bin:/bin",
            "DEN_CACHE_DIR": den.temp.path("cache").path, "DEN_DATA_DIR": den.temp.path("data").path,
            "XDG_DATA_HOME": den.temp.path("xdg").path, "DEN_PLUGIN_PATH": "", "NO_COLOR": "1",
            "DEN_CONFIG_DIR": den.temp.path("config").path, "DEN_TRUST_POLICY": "",
        ])
    }

    @Test("the installed den, started from PATH, finds its bundled modules and nothing else")
    func installedFromPath() throws {
        let den = try DenCommand()
        let prefix = try install(den)
        let files = FileManager.default
        #expect(files.isExecutableFile(atPath: prefix.appendingPathComponent("bin/den").path))
        #expect(files.isExecutableFile(atPath: prefix.appendingPathComponent("bin/den-commands").path))
        #expect(files.fileExists(atPath: prefix.appendingPathComponent("lib/den/libDenSQLiteStorage.so").path))
        let installed = try files.contentsOfDirectory(atPath: prefix.appendingPathComponent("lib/den/modules").path).sorted()
        let modules = installed.filter { $0.hasSuffix(".so") }
        #expect(modules == BuildProducts.bundledModuleFiles, "only modules sit where den looks for modules")
        #expect(installed.filter { !$0.hasSuffix(".so") } == modules.map { "\($0).minisig" }, "each one signed: \(installed)")
        #expect(files.fileExists(atPath: prefix.appendingPathComponent("lib/den/trusted-keys").path))
        #expect(!files.fileExists(atPath: prefix.appendingPathComponent("lib/den/keys").path), "the install's secret key is gone")
        #expect(modules.contains("libJogsModule.so"))
        // The test-only Swift fault module is a product of the package too, built beside the modules.
        #expect(files.fileExists(atPath: BuildProducts.library("DenFixtureSwiftFaults").path))
        #expect(!installed.contains("libDenFixtureSwiftFaults.so") && !files.fileExists(atPath: prefix.appendingPathComponent("lib/den/libDenFixtureSwiftFaults.so").path),
                "test fixtures are never installed")
        #expect(files.fileExists(atPath: prefix.appendingPathComponent("lib/den/libDenHTTPTransport.so").path))
        #expect(files.fileExists(atPath: prefix.appendingPathComponent("lib/den/libDenCrypto.so").path))
        for completion in ["share/bash-completion/completions/den", "share/zsh/site-functions/_den",
                           "share/fish/vendor_completions.d/den.fish"] {
            let text = try String(contentsOf: prefix.appendingPathComponent(completion), encoding: .utf8)
            #expect(text.contains("den"), "\(completion) is a completion script")
        }
        if files.fileExists(atPath: BuildProducts.directory.appendingPathComponent("generate-manual").path) {
            let manual = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/den.1"), encoding: .utf8)
            #expect(manual.contains(".Dt DEN 1"))
            #expect(manual.contains("Exit status"))
        }

        let plugins = try runFromPath(den, path: prefix.appendingPathComponent("bin"), ["plugins"])
        #expect(plugins.status == 0, "\(plugins.stderr)")
        #expect(plugins.stdout.contains("\(modules.count) active, 0 failed"), "\(plugins.stdout)")
        // The bundled modules pass the installed den's default policy, require-signature.
        #expect(plugins.stdout.components(separatedBy: "signed by den bundled modules").count - 1 == modules.count, "\(plugins.stdout)")
        let policy = try runFromPath(den, path: prefix.appendingPathComponent("bin"), ["keys", "policy"])
        #expect(policy.stdout.contains("require-signature (the default of an installed den)"), "\(policy.stdout)\(policy.stderr)")
        // A module of your own that nobody signed is refused, with what to do.
        let own = den.temp.path("xdg/den/modules")
        try files.createDirectory(at: own, withIntermediateDirectories: true)
        try files.copyItem(at: BuildProducts.library("DenFixtureGuardedRoute"), to: own.appendingPathComponent("libDenFixtureGuardedRoute.so"))
        let refused = try runFromPath(den, path: prefix.appendingPathComponent("bin"), ["plugins"])
        #expect(refused.stdout.contains("it is not signed") && refused.stdout.contains("den modules sign"), "\(refused.stdout)")
        try files.removeItem(at: own.appendingPathComponent("libDenFixtureGuardedRoute.so"))
        #expect(plugins.stdout.contains(prefix.appendingPathComponent("lib/den/modules/libAboutModule.so").path))
        let render = try runFromPath(den, path: prefix.appendingPathComponent("bin"), ["render", "main"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.hasPrefix("Currency converter"))
        // A value saved by den-commands (`run`) is read back by den's own `render`, through the
        // installed storage library.
        let session = try runFromPath(den, path: prefix.appendingPathComponent("bin"), ["run", "main"],
                                      input: "set amount 42,5\nconvert\nquit\n")
        #expect(session.status == 0, "\(session.stderr)")
        let again = try runFromPath(den, path: prefix.appendingPathComponent("bin"), ["render", "main"])
        #expect(again.stdout.contains("42.5 USD"), "\(again.stdout)\n\(again.stderr)")
        // A password hash and a reset token, through the installed hashing library.
        let added = try runFromPath(den, path: prefix.appendingPathComponent("bin"), ["users", "add", "installed"],
                                    input: "a long password\n")
        #expect(added.status == 0, "\(added.stdout)\n\(added.stderr)")
        let token = try runFromPath(den, path: prefix.appendingPathComponent("bin"), ["users", "reset-token", "installed"])
        #expect(token.status == 0, "\(token.stdout)\n\(token.stderr)")
    }

    @Test("a symlink to the installed den, in another folder, still finds the modules")
    func symlinkedInstall() throws {
        let den = try DenCommand()
        let prefix = try install(den)
        let links = try den.temp.folder("links")
        try FileManager.default.createSymbolicLink(at: links.appendingPathComponent("den"),
                                                   withDestinationURL: prefix.appendingPathComponent("bin/den"))
        let result = try runFromPath(den, path: links, ["plugins"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\(BuildProducts.bundledModuleFiles.count) active, 0 failed"))
    }

    @Test("a symlink to den in the build folder finds the bundled modules there")
    func symlinkedBuild() throws {
        let den = try DenCommand()
        let links = try den.temp.folder("links")
        try FileManager.default.createSymbolicLink(at: links.appendingPathComponent("den"),
                                                   withDestinationURL: try BuildProducts.require(BuildProducts.den))
        let result = try runFromPath(den, path: links, ["plugins"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\(BuildProducts.bundledModuleFiles.count) active, 0 failed"), "fixtures and the transport library are never counted")
    }

    @Test("bad install arguments are refused with what to do")
    func badArguments() throws {
        let empty = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), [Self.script.path, "--prefix", ""])
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("--prefix needs a folder"))
        let unknown = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), [Self.script.path, "--prefx", "/tmp/x"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown argument '--prefx'"))
        let notBuilt = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), [Self.script.path, "--prefix", "/tmp/den-never", "--from", "/nonexistent"])
        #expect(notBuilt.status == 1)
        #expect(notBuilt.stderr.contains("build first"))
    }
}
