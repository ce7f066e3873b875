import DenTestSupport
import Foundation
import Testing

/// At every start den holds each module to its manifest's `requires` (docs/CATALOG.md,
/// "Requirements"): a module whose requirement is unmet never runs, and `den plugins` says which
/// requirement failed; the rest load dependencies first; a call to another module's export is held
/// to what the caller requires. The modules are C from den_module.h alone
/// (Tests/RequirementFixture/requiring_module.c), built here in the versions each test needs.
@Suite("Requirements at start: unmet ones keep a module out, dependencies load first")
struct RequirementsEndToEndTests {
    static let fixture = try! SwapFixture(source: SwapFixture.requiringSource)

    /// `-D` flags for module `id` at `version` (`SwapFixture.requiringModule`).
    static func module(_ id: String, _ version: String, requires: [String: String] = [:], exports: [String] = []) -> [String] {
        SwapFixture.requiringModule(id, version, requires: requires, exports: exports)
    }

    /// A plugin folder with these modules, by file name.
    static func folder(_ den: DenCommand, _ modules: [String: [String]]) throws -> URL {
        let folder = try den.temp.folder("plugins-\(UUID().uuidString.prefix(8))")
        for (name, flags) in modules { try fixture.install(flags, into: folder, as: name) }
        return folder
    }

    /// The ids whose entry points ran, in order (DEN_FIXTURE_TRACE).
    static func ran(_ trace: URL) -> [String] {
        ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").split(separator: "\n").map { String($0.split(separator: " ")[0]) }
    }

    @Test("den plugins names each unmet requirement (a version out of range, a missing module, den itself, a cycle, a chain); none of their code runs")
    func unmetNamed() throws {
        let den = try DenCommand()
        // File names sort a dependent before what it requires: the order below is den's, not the folder's.
        let folder = try Self.folder(den, [
            "libAUser.so": Self.module("requser", "1.0.0", requires: ["reqbase": "^1.1"]),
            "libBBase.so": Self.module("reqbase", "1.2.0"),
            "libCNewer.so": Self.module("newer", "1.0.0", requires: ["reqbase": "^2"]),
            "libDMissing.so": Self.module("lonely", "1.0.0", requires: ["absent": "*"]),
            "libEFuture.so": Self.module("future", "1.0.0", requires: ["den": ">=9"]),
            "libFCycleA.so": Self.module("cyclea", "1.0.0", requires: ["cycleb": "^1"]),
            "libGCycleB.so": Self.module("cycleb", "1.0.0", requires: ["cyclea": "^1"]),
            "libHAbove.so": Self.module("above", "1.0.0", requires: ["newer": "^1"]),
        ])
        let trace = den.temp.path("trace")
        let result = try den.run(["plugins", "--no-default-modules", "--plugin-dir", folder.path], environment: ["DEN_FIXTURE_TRACE": trace.path])
        let out = result.stdout + result.stderr
        #expect(out.contains("not loaded: it requires reqbase ^2, but reqbase 1.2.0 is installed"), "\(out)")
        #expect(out.contains("not loaded: it requires absent *, but absent is not installed"), "\(out)")
        #expect(out.contains("not loaded: it requires den >=9, and this den is 1.0.0"), "\(out)")
        #expect(out.contains("not loaded: it is in a dependency cycle: cyclea -> cycleb -> cyclea"), "\(out)")
        #expect(out.contains("not loaded: it is in a dependency cycle: cycleb -> cyclea -> cycleb"), "\(out)")
        #expect(out.contains("not loaded: it requires newer ^1, but newer is not loaded"), "\(out)")
        #expect(out.contains("den modules install"), "the fix is named: \(out)")
        // Only the two whose requirements hold ran, the dependency first.
        #expect(Self.ran(trace) == ["reqbase", "requser"], "\(Self.ran(trace))")
        #expect(out.contains("requires: reqbase ^1.1"), "an active module's requirements are listed: \(out)")
        let inspected = try den.run(["plugins", "--inspect", folder.appendingPathComponent("libDMissing.so").path])
        #expect(inspected.stdout.contains("  requires:\n    absent *\n"), "\(inspected.stdout)")
    }

    @Test("a lazy start installs only modules whose requirements hold; a route of one that does not says why")
    func lazyStart() throws {
        let den = try DenCommand()
        let folder = try Self.folder(den, [
            "libBase.so": Self.module("reqbase", "1.2.0"),
            "libNewer.so": Self.module("newer", "1.0.0", requires: ["reqbase": "^2"]),
        ])
        let trace = den.temp.path("trace")
        let environment = ["DEN_FIXTURE_TRACE": trace.path]
        let shown = try den.run(["render", "newer", "--no-default-modules", "--plugin-dir", folder.path], environment: environment)
        #expect(shown.status != 0)
        #expect((shown.stdout + shown.stderr).contains("requires reqbase ^2, but reqbase 1.2.0 is installed"), "\(shown.stdout)\(shown.stderr)")
        #expect(!Self.ran(trace).contains("newer"))
        let base = try den.run(["render", "reqbase", "--no-default-modules", "--plugin-dir", folder.path], environment: environment)
        #expect(base.status == 0, "\(base.stderr)")
        #expect(base.stdout.contains("reqbase 1.2.0"), "\(base.stdout)")
    }

    @Test("--plugins that leaves out a module another requires says so, whether den read its manifest or only its file name")
    func selectionLeavesOut() throws {
        let den = try DenCommand()
        let folder = try Self.folder(den, [
            "libReqBaseModule.so": Self.module("req-base", "1.2.0"), // the name tells "reqbase": not even read
            "libOther.so": Self.module("other", "1.0.0"),
            "libUser.so": Self.module("requser", "1.0.0", requires: ["req-base": "^1", "other": "^1"]),
        ])
        let result = try den.run(["plugins", "--no-default-modules", "--plugin-dir", folder.path, "--plugins", "requser"])
        #expect(result.status == 1, "no module is active")
        let out = result.stdout + result.stderr
        #expect(out.contains("requires other ^1, but other is not selected by --plugins"), "\(out)")
        #expect(out.contains("requires req-base ^1, but req-base is not selected by --plugins"), "\(out)")
        #expect(try den.run(["plugins", "--no-default-modules", "--plugin-dir", folder.path, "--plugins", "requser,req-base,other"]).status == 0)
    }

    @Test("a module calls the exports of a module it requires, at a version in range (out of range: RequirementSwapTests)")
    func exportCallsHeldToRequires() throws {
        let den = try DenCommand()
        let folder = try Self.folder(den, [
            "libBase.so": Self.module("reqbase", "1.2.0"),
            "libUser.so": Self.module("requser", "1.0.0", requires: ["reqbase": "^1"], exports: ["reqbase.*"]),
        ])
        let call = #"{"name": "reqbase.call", "arguments": ["log", "{\"level\": \"info\", \"message\": \"hi\"}"]}"#
        let result = try den.run(["call", "--no-default-modules", "--plugin-dir", folder.path, "requser.call", "exports.call", call])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(#"0 {"result":"0 "#), "requser reaches reqbase, which reaches log: \(result.stdout)")
    }

    @Test("install refuses a file whose requirement is unmet, and a version a module installed now does not accept unless --force")
    func installHoldsRequirements() throws {
        let den = try DenCommand()
        let files = try Self.folder(den, [
            "libReqBase.so": Self.module("reqbase", "1.2.0"),
            "libReqUser.so": Self.module("requser", "1.0.0", requires: ["reqbase": "^1"]),
        ])
        let newer = try Self.folder(den, [
            "libReqBase.so": Self.module("reqbase", "2.0.0"),
            "libReqNeeds.so": Self.module("reqneeds", "1.0.0", requires: ["reqbase": "^2"]),
        ])
        func install(_ file: URL, _ more: [String] = []) throws -> ProcessResult {
            try den.run(["modules", "install", file.path, "--trust-policy", "allow", "--yes"] + more)
        }
        // In an order that puts the dependent first: refused until what it requires is there.
        let early = try install(files.appendingPathComponent("libReqUser.so"))
        #expect(early.status == 1)
        #expect(early.stderr.contains("cannot be installed: not loaded: it requires reqbase ^1, but reqbase is not installed"), "\(early.stderr)")
        #expect(try install(files.appendingPathComponent("libReqBase.so")).status == 0)
        let user = try install(files.appendingPathComponent("libReqUser.so"))
        #expect(user.status == 0, "\(user.stderr)")
        let needs = try install(newer.appendingPathComponent("libReqNeeds.so"))
        #expect(needs.status == 1)
        #expect(needs.stderr.contains("it requires reqbase ^2, but reqbase 1.2.0 is installed"), "\(needs.stderr)")
        // reqbase 2.0.0 would leave requser without what it requires.
        let breaking = try install(newer.appendingPathComponent("libReqBase.so"))
        #expect(breaking.status == 1)
        #expect(breaking.stderr.contains("reqbase 2.0.0 would stop requser 1.0.0 from loading (requser requires reqbase ^1)"), "\(breaking.stderr)")
        #expect(breaking.stderr.contains("--force"))
        let listed = try den.run(["plugins"])
        #expect(listed.stdout.contains("reqbase 1.2.0"), "nothing was installed: \(listed.stdout)")
        let forced = try install(newer.appendingPathComponent("libReqBase.so"), ["--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        let after = try den.run(["plugins"])
        #expect(after.stdout.contains("reqbase 2.0.0"), "\(after.stdout)")
        #expect(after.stdout.contains("not loaded: it requires reqbase ^1, but reqbase 2.0.0 is installed"), "\(after.stdout)")
    }
}
