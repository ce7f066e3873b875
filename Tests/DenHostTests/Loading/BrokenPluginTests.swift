import CDenABI
@testable import DenHost
import DenKit
@testable import DenModuleFiles
import DenSupport
import DenTestSupport
import Foundation
import Testing

/// Each broken plugin is reported with the file, the cause and the fix, and the other modules
/// keep working.
@Suite("Broken plugins never take the host down")
struct BrokenPluginTests {
    /// Loads About plus one broken plugin, checks About still serves its route, and returns the
    /// broken plugin's error.
    func loadBeside(_ setUp: (PluginFolder) throws -> String) throws -> PluginLoadError {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        let broken = try setUp(folder)
        let runtime = try folder.runtime()

        let about = try #require(runtime.record("libAboutModule.so"))
        #expect(about.isActive, "the healthy module must keep working")
        let session = runtime.makeSession().open("about")
        #expect(session.screen.title == "About Den")

        let record = try #require(runtime.record(broken))
        let error = try #require(record.error, "\(broken) should have failed")
        #expect(error.description.contains(broken), "the message names the file")
        #expect(!error.fix.isEmpty)
        return error
    }

    @Test("a text file named .so")
    func notELF() throws {
        let error = try loadBeside { folder in
            try folder.write(Array("this is not a library\n".utf8), as: "libNotes.so")
            return "libNotes.so"
        }
        #expect(error.cause == .notELF)
        #expect(error.reason.contains("not a shared library"))
        #expect(error.fix.contains("rebuild"))
    }

    @Test("an empty file")
    func empty() throws {
        let error = try loadBeside { folder in
            try folder.write([], as: "libEmpty.so")
            return "libEmpty.so"
        }
        #expect(error.cause == .emptyFile)
        #expect(error.reason == "the file is empty")
    }

    @Test("an unwritable plugin cache is reported as such, naming the folder and the option")
    func unwritableCache() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        let blocker = try folder.temp.write(Data("a file, not a folder".utf8), to: "cache-is-a-file")
        let runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [folder.plugins], bundledDirectory: nil, cacheDirectory: blocker,
            dataDirectory: folder.temp.path("data")))
        runtime.loadPlugins()
        let error = try #require(runtime.record("libAboutModule.so")?.error)
        guard case .cacheUnwritable(let directory, _) = error.cause else {
            Issue.record("expected an unwritable cache, got \(error)")
            return
        }
        #expect(directory == blocker.path)
        #expect(error.fix.contains("--cache-dir"))
    }

    @Test("a folder named like a plugin is refused without being copied")
    func folderNamedSO() throws {
        let error = try loadBeside { folder in
            _ = try folder.temp.folder("plugins/libFolder.so")
            return "libFolder.so"
        }
        #expect(error.cause == .unreadable("it is not a regular file"))
    }

    @Test("a dangling link to a plugin that was removed")
    func danglingLink() throws {
        let error = try loadBeside { folder in
            try FileManager.default.createSymbolicLink(atPath: folder.plugins.appendingPathComponent("libGone.so").path,
                                                       withDestinationPath: "/nonexistent/libGone.so")
            return "libGone.so"
        }
        #expect(error.cause == .unreadable("No such file or directory"))
        #expect(error.fix.contains("exists"))
    }

    @Test("a truncated library is refused before dlopen, which would die of SIGBUS")
    func truncated() throws {
        let error = try loadBeside { folder in
            let real = try Data(contentsOf: BuildProducts.require(BuildProducts.library("AboutModule")))
            try folder.write(Array(real.prefix(4096)), as: "libTruncated.so")
            return "libTruncated.so"
        }
        guard case .truncated(let size, let required) = error.cause else {
            Issue.record("expected a truncated library, got \(error)")
            return
        }
        #expect(size == 4096)
        #expect(required > size)
        #expect(error.reason.contains("truncated"))
    }

    @Test("a library built for another CPU")
    func otherArchitecture() throws {
        let error = try loadBeside { folder in
            var header = [UInt8](repeating: 0, count: 64)
            header[0...3] = [0x7F, 0x45, 0x4C, 0x46]
            header[4] = 2
            header[5] = 1
            header[18] = 0xB7 // aarch64
            if ELFHeader.hostMachineName == "aarch64" { header[18] = 0x3E } // then x86_64 is the stranger
            try folder.write(header, as: "libArm.so")
            return "libArm.so"
        }
        let host = ELFHeader.hostMachineName
        #expect(error.cause == .wrongArchitecture(found: host == "aarch64" ? "x86_64" : "aarch64", expected: host))
        #expect(error.fix.contains("rebuild"))
    }

    @Test("a library with an undefined symbol is refused by dlopen itself (RTLD_NOW), naming the symbol")
    func undefinedSymbol() throws {
        let error = try loadBeside { folder in
            try folder.add("DenFixtureUndefinedSymbol")
            return "libDenFixtureUndefinedSymbol.so"
        }
        guard case .openFailed(let detail) = error.cause else {
            Issue.record("expected the dynamic loader to refuse it, got \(error)")
            return
        }
        #expect(detail.contains("undefined symbol: den_fixture_function_nobody_defines"))
        #expect(!detail.contains("/cache/"), "the message names the plugin, not the cache copy: \(detail)")
        // The fix fits the cause: a C plugin's missing symbol is not cured by `swift build`.
        #expect(!error.fix.contains("swift build"))
        #expect(error.fix.contains("link the library that provides it"))
    }

    @Test("a library without den_module_entry")
    func missingEntry() throws {
        let error = try loadBeside { folder in
            try folder.add("DenFixtureNoEntry")
            return "libDenFixtureNoEntry.so"
        }
        #expect(error.cause == .missingSymbol("den_module_entry"))
        #expect(error.fix.contains("@_cdecl(\"den_module_entry\")"))
    }

    @Test("a shared library that is no Den module at all (no ABI version symbol)")
    func missingABIVersion() throws {
        let error = try loadBeside { folder in
            try folder.add("DenFixturePlainLibrary")
            return "libDenFixturePlainLibrary.so"
        }
        #expect(error.cause == .missingSymbol("den_abi_version"))
        #expect(error.fix.contains("DEN_DEFINE_ABI_VERSION"))
    }

    @Test("a den_abi_version that is not a 4-byte object is named as such, not as missing", arguments: [
        ("const uint64_t den_abi_version = 1;", 8),
        ("const uint8_t den_abi_version = 1;", 1),
    ])
    func malformedABIVersion(definition: String, size: Int) throws {
        let error = try loadBeside { folder in
            let source = folder.temp.path("abi.c")
            try Data("#include <stdint.h>\n__attribute__((visibility(\"default\"))) \(definition)\n".utf8).write(to: source)
            let output = folder.plugins.appendingPathComponent("libWideABI.so")
            let built = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/cc"), ["-shared", "-fPIC", source.path, "-o", output.path])
            try #require(built.status == 0, "\(built.stderr)")
            return "libWideABI.so"
        }
        #expect(error.cause == .malformedABIVersion(size: size))
        #expect(error.reason == "its `den_abi_version` is \(size) bytes, not a 4-byte `uint32_t` (a wider integer, or a function?)")
        #expect(error.fix.contains("DEN_DEFINE_ABI_VERSION"))
    }

    @Test("a module that describes itself with an invalid id is refused with the rule")
    func invalidID() throws {
        let error = try loadBeside { folder in
            try folder.add("DenFixtureBadRegistration")
            return "libDenFixtureBadRegistration.so"
        }
        guard case .entryFailed(let status, let detail) = error.cause else {
            Issue.record("expected the entry point's error, got \(error)")
            return
        }
        #expect(status == 1)
        // The id the module tried is echoed sanitised: its ESC sequence cannot reach a terminal.
        #expect(detail?.contains("module id 'Bad Id!^[[2J' is not valid") == true)
        #expect(detail?.contains("a-z, 0-9") == true)
        #expect(!error.description.contains("\u{1B}"))
    }

    @Test("a wrong ABI version is refused before any plugin code runs, constructors included")
    func wrongABI() throws {
        // The fixture's ELF constructor and entry point call abort(): reaching either would kill
        // this test process, so passing proves the version was read from the file, not via dlopen.
        let error = try loadBeside { folder in
            try folder.add("DenFixtureWrongABI")
            return "libDenFixtureWrongABI.so"
        }
        #expect(error.cause == .abiMismatch(found: 999, expected: 1))
        #expect(error.reason.contains("version 999"))
        // The rejected image stays mapped (never dlclosed): conformance scans keep working.
        let values: [Any] = [1, "two", 3.0]
        #expect(values.compactMap { $0 as? CustomStringConvertible }.count == 3)
        #expect(["b", "a"].sorted() == ["a", "b"])
    }

    @Test("a plugin from another Swift toolchain is refused before its code runs, constructors included")
    func otherToolchain() throws {
        let error = try loadBeside { folder in
            try folder.add("DenFixtureToolchain")
            return "libDenFixtureToolchain.so"
        }
        guard case .toolchainMismatch(let found, let expected) = error.cause else {
            Issue.record("expected a toolchain mismatch, got \(error)")
            return
        }
        #expect(found.contains("older toolchain"))
        #expect(expected == DenModule.toolchain)
        #expect(error.fix.contains("no stable ABI"))
    }

    @Test("an entry point that returns an error")
    func entryFails() throws {
        let error = try loadBeside { folder in
            try folder.add("DenFixtureEntryFails")
            return "libDenFixtureEntryFails.so"
        }
        #expect(error.cause == .entryFailed(status: 6, detail: nil))
        #expect(error.reason.contains("returned DEN_ERR_SERVICE (6)"))
    }

    @Test("a second module with an id already taken")
    func duplicateID() throws {
        let error = try loadBeside { folder in
            try folder.add("DenFixtureDuplicateAbout")
            return "libDenFixtureDuplicateAbout.so"
        }
        guard case .duplicateModule(let id, let existing) = error.cause else {
            Issue.record("expected a duplicate module id, got \(error)")
            return
        }
        #expect(id == "about")
        #expect(existing.hasSuffix("libAboutModule.so"))
        #expect(error.description.contains("libAboutModule.so"), "the message names both files")
    }

    @Test("a route that conflicts with another module's is refused, naming both modules")
    func routeConflict() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        try folder.add("DenFixtureConflictingRoute")
        let runtime = try folder.runtime()

        let record = try #require(runtime.record("libDenFixtureConflictingRoute.so"))
        let error = try #require(record.error)
        #expect(error.description.contains("squatter"))
        #expect(error.description.contains("about"))
        // All or nothing: the squatter's other route was not installed either.
        #expect(runtime.registry.routes.map(\.pattern) == ["about"])
        #expect(try runtime.registry.resolve("about").get().owner == "about")
        #expect((try? runtime.registry.resolve("squatter").get()) == nil, "the route table took the squatter's first route back")
    }

    @Test("every failure shows in the plugin list that modules see")
    func failuresAreListed() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        try folder.write([], as: "libEmpty.so")
        try folder.add("DenFixtureWrongABI")
        let runtime = try folder.runtime()

        let listed = runtime.registry.plugins.map(\.summaryDocument)
        #expect(listed.count == 3)
        #expect(listed.filter { $0.status == .failed }.map(\.file).sorted() == ["libDenFixtureWrongABI.so", "libEmpty.so"])
        #expect(listed.first { $0.file == "libEmpty.so" }?.error?.contains("empty") == true)
    }

    @Test("a refused module leaves no trace in the registry's index: a conflict's id is not taken, a duplicate's original keeps it")
    func refusalsLeaveTheIndexAsItWas() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        try folder.add("DenFixtureConflictingRoute")
        try folder.add("DenFixtureDuplicateAbout")
        let runtime = try folder.runtime()
        let squatter = try #require(runtime.record("libDenFixtureConflictingRoute.so"))
        let duplicate = try #require(runtime.record("libDenFixtureDuplicateAbout.so"))
        #expect(!squatter.isActive && !duplicate.isActive)

        // A record is found by id through the index: the refused squatter has none.
        runtime.registry.updateRecord(filePath: squatter.filePath, id: "squatter") { $0.summary = "changed" }
        #expect(runtime.record("libDenFixtureConflictingRoute.so")?.summary == squatter.summary)
        // The duplicate did not take "about" from the file that had it.
        runtime.registry.updateRecord(filePath: duplicate.filePath, id: "about") { $0.summary = "changed" }
        #expect(runtime.record("libDenFixtureDuplicateAbout.so")?.summary == duplicate.summary)
        let about = try #require(runtime.record("libAboutModule.so"))
        runtime.registry.updateRecord(filePath: about.filePath, id: "about") { $0.summary = "reached" }
        #expect(runtime.record("libAboutModule.so")?.summary == "reached")
    }

    @Test("a module asking plugins.list for some fields gets those of every file, loaded or failed, and no more")
    func failuresAreListedWithFields() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        try folder.write([], as: "libEmpty.so")
        let runtime = try folder.runtime()

        func listed(_ request: String) throws -> [PluginSummary] {
            let (status, body) = runtime.services.call("plugins.list", request: Data(request.utf8), caller: ServiceCaller(moduleID: "about"))
            #expect(status == DEN_OK, "\(String(decoding: body, as: UTF8.self))")
            return try WireFormat.decode(PluginListResponse.self, from: body).plugins
        }
        let some = try listed(#"{"fields":["id","error","loaded_at"]}"#)
        let about = try #require(some.first { $0.file == "libAboutModule.so" })
        #expect(about.id == "about" && about.loadedAt != nil && about.status == .active)
        #expect(about.version == nil && about.summary == nil && about.routes == [] && about.generation == nil)
        let empty = try #require(some.first { $0.file == "libEmpty.so" })
        #expect(empty.status == .failed && empty.error?.contains("empty") == true)

        let all = try listed("{}")
        #expect(all.first { $0.file == "libAboutModule.so" }?.routes == ["about"])
        #expect(all.first { $0.file == "libAboutModule.so" }?.generation == 1)
        #expect(all == runtime.registry.plugins.map(\.summaryDocument), "{} is every field, as before")
    }
}
