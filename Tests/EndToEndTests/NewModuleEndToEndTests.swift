import DenTestSupport
import Foundation
import Testing

/// `den new-module`: the generated package builds from scratch, its own tests pass, and the built
/// `den` loads it, all with no edit.
@Suite("den new-module")
struct NewModuleEndToEndTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `swift` at a low CPU priority: the compile runs beside the other suites, some of which time
    /// things in hundreds of milliseconds, and must not starve them.
    private func swift(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["nice", "-n", "15", "swift"] + arguments, timeout: 1200)
    }

    @Test("a generated module builds, passes its tests, loads in den, installs and removes")
    func generateBuildTestLoad() throws {
        let den = try DenCommand()
        let package = den.temp.path("TrailMap")
        let scratch = den.temp.path("trailmap-build")
        let generate = try den.run(["new-module", "TrailMap", "--path", package.path, "--route", "trails",
                                    "--route", "trails/<string:name>", "--den-package", Self.repository.path])
        #expect(generate.status == 0, "\(generate.stderr)")
        #expect(generate.stdout.contains("Wrote module 'trail-map'"), "\(generate.stdout)")
        for file in ["Package.swift", "README.md", "Sources/TrailMapModule/Presenter/TrailMapPresenter.swift",
                     "Sources/TrailMapModule/Manifest/module.json", "Tests/TrailMapModuleTests/Mocks.swift"] {
            #expect(FileManager.default.fileExists(atPath: package.appendingPathComponent(file).path), "\(file) was not written")
        }

        let build = try swift(["build", "--package-path", package.path, "--scratch-path", scratch.path])
        #expect(build.status == 0, "swift build: \(build.stdout.suffix(3000)) \(build.stderr.suffix(2000))")
        let test = try swift(["test", "--package-path", package.path, "--scratch-path", scratch.path])
        #expect(test.status == 0, "swift test: \(test.stdout.suffix(3000)) \(test.stderr.suffix(2000))")
        #expect(test.stdout.contains("passed") || test.stderr.contains("passed"), "\(test.stdout.suffix(500))")

        let library = scratch.appendingPathComponent("debug/libTrailMapModule.so")
        let inspect = try den.run(["plugins", "--inspect", library.path])
        #expect(inspect.status == 0, "\(inspect.stdout) \(inspect.stderr)")
        #expect(inspect.stdout.contains("id: trail-map"), "\(inspect.stdout)")

        // The terminal draws a heading in capitals.
        let render = try den.run(["render", "trails/Ridgeway", "--plugin-dir", library.deletingLastPathComponent().path])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("HELLO FROM TRAILMAP!"), "\(render.stdout)")
        #expect(render.stdout.contains("name = Ridgeway"), "\(render.stdout)")

        let install = try den.run(["modules", "install", library.path])
        #expect(install.status == 0, "\(install.stderr)")
        let installed = try den.run(["render", "trails"])
        #expect(installed.stdout.contains("HELLO FROM TRAILMAP!"), "\(installed.stdout) \(installed.stderr)")
        let settings = try den.run(["config", "set", "trail-map", "greeting", "Hiya"])
        #expect(settings.status == 0, "\(settings.stderr)")
        #expect(try den.run(["render", "trails"]).stdout.contains("HIYA FROM TRAILMAP!"), "the setting changed the greeting")
        #expect(try den.run(["modules", "remove", "trail-map"]).status == 0)

        // module.json is the one source: a route added there alone fails to compile, naming its
        // builder; a bad field fails the build naming the file and the field.
        let manifest = package.appendingPathComponent("Sources/TrailMapModule/Manifest/module.json")
        let original = try String(contentsOf: manifest, encoding: .utf8)
        try original.replacingOccurrences(of: #"{"pattern": "trails"}"#, with: #"{"pattern": "trails"}, {"pattern": "trails/<int:id>/map"}"#)
            .write(to: manifest, atomically: true, encoding: .utf8)
        let unimplemented = try swift(["build", "--package-path", package.path, "--scratch-path", scratch.path])
        #expect(unimplemented.status != 0)
        #expect((unimplemented.stdout + unimplemented.stderr).contains("buildTrailsMap"), "\(unimplemented.stdout.suffix(3000))")
        try original.replacingOccurrences(of: #""version": "0.1.0""#, with: #""version": 1"#)
            .write(to: manifest, atomically: true, encoding: .utf8)
        let bad = try swift(["build", "--package-path", package.path, "--scratch-path", scratch.path])
        #expect(bad.status != 0)
        #expect((bad.stdout + bad.stderr).contains("module.json: error: version: is not a string"), "\(bad.stdout.suffix(3000))")
    }

    @Test("bad names, bad routes and an occupied folder are refused, writing nothing", arguments: [
        (["weather"], "is not a module name"),
        (["Weather Map"], "is not a module name"),
        (["DenKit"], "taken by Den"),
        (["Weather", "--route", "a/../b"], "--route 'a/../b'"),
        (["Weather", "--route", "x", "--route", "x"], "given twice"),
        (["Weather", "--route", "say\"hi"], "a route literal cannot contain"),
    ])
    func refused(arguments: [String], expected: String) throws {
        let den = try DenCommand()
        let folder = den.temp.path("out")
        let result = try den.run(["new-module"] + arguments + ["--path", folder.path, "--den-package", Self.repository.path])
        #expect(result.status == 64, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test("a folder that is not empty is never written into")
    func occupied() throws {
        let den = try DenCommand()
        let folder = try den.temp.folder("busy")
        try den.temp.write(Data("mine".utf8), to: "notes.txt", in: folder)
        let result = try den.run(["new-module", "Weather", "--path", folder.path, "--den-package", Self.repository.path])
        #expect(result.status == 64)
        #expect(result.stderr.contains("not empty"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
    }

    @Test("a --den-package that is not Den is refused")
    func wrongDenPackage() throws {
        let den = try DenCommand()
        let result = try den.run(["new-module", "Weather", "--path", den.temp.path("w").path, "--den-package", den.temp.url.path])
        #expect(result.status == 64)
        #expect(result.stderr.contains("is not the Den package"), "\(result.stderr)")
    }

    @Test("a module pins Den by version: from a tagged repository it resolves Den alone, builds and loads")
    func pinnedByVersion() throws {
        let den = try DenCommand()
        // Den's repository as a third party meets it: a bare clone of this checkout, tagged with
        // this den's version.
        let version = try #require(try den.run(["--version"]).stdout.split(separator: "\n").first?
            .split(separator: " ").last.map(String.init))
        let repository = den.temp.path("den.git")
        let git = URL(fileURLWithPath: "/usr/bin/env")
        let clone = try ProcessRunner.run(git, ["git", "clone", "--quiet", "--bare", Self.repository.path, repository.path], timeout: 120)
        try #require(clone.status == 0, "git clone: \(clone.stderr)")
        let tag = try ProcessRunner.run(git, ["git", "-C", repository.path, "tag", "--force", version, "HEAD"], timeout: 30)
        try #require(tag.status == 0, "git tag: \(tag.stderr)")

        let package = den.temp.path("Weather")
        let scratch = den.temp.path("weather-build")
        let generate = try den.run(["new-module", "Weather", "--path", package.path, "--den-url", repository.path])
        #expect(generate.status == 0, "\(generate.stderr)")
        let manifest = try String(contentsOf: package.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(".package(url: \"\(repository.path)\", from: \"\(version)\", traits: [])"), "\(manifest)")

        let build = try swift(["build", "--package-path", package.path, "--scratch-path", scratch.path])
        #expect(build.status == 0, "swift build: \(build.stdout.suffix(3000)) \(build.stderr.suffix(2000))")
        // No "contains unsafe build flags", and none of the host's packages: Den is the only one.
        let resolved = try String(contentsOf: package.appendingPathComponent("Package.resolved"), encoding: .utf8)
        let identities = resolved.split(separator: "\n").filter { $0.contains("\"identity\"") }
        #expect(identities.count == 1 && identities[0].contains("\"den\""), "resolved: \(identities)")

        let library = scratch.appendingPathComponent("debug/libWeatherModule.so")
        let render = try den.run(["render", "weather", "--plugin-dir", library.deletingLastPathComponent().path])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("HELLO FROM WEATHER!"), "\(render.stdout)")
    }

    @Test("a --den-url that Package.swift could not hold is refused, writing nothing")
    func unquotableURL() throws {
        let den = try DenCommand()
        let folder = den.temp.path("w")
        let result = try den.run(["new-module", "Weather", "--path", folder.path, "--den-url", "/tmp/den\".git"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("contains a quote"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test("--den-url and --den-package together are refused")
    func bothDependencies() throws {
        let den = try DenCommand()
        let result = try den.run(["new-module", "Weather", "--path", den.temp.path("w").path,
                                  "--den-url", "https://example.invalid/den.git", "--den-package", Self.repository.path])
        #expect(result.status == 64)
        #expect(result.stderr.contains("not both"), "\(result.stderr)")
    }
}
