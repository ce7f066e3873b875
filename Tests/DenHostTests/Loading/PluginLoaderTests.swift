import DenModuleFiles
import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

@Suite("Loading plugins from real .so files")
struct PluginLoaderTests {
    @Test("the bundled About module loads through its C entry point and registers its route")
    func loadsAbout() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        let runtime = try folder.runtime()

        let about = try #require(runtime.record("libAboutModule.so"))
        #expect(about.isActive)
        #expect(about.id == "about")
        #expect(about.version == "1.0.0")
        #expect(about.routes == ["about"])
        #expect(runtime.registry.routes.map(\.pattern) == ["about"])
    }

    @Test("the loaded copy lives in the cache under a new name, never the original path")
    func loadsACopy() throws {
        let folder = try PluginFolder()
        let original = try folder.add("AboutModule")
        let cache = PluginCache(directory: folder.temp.path("cache"))

        let first = try cache.stage(original)
        #expect(first.path != original.path)
        #expect(first.deletingLastPathComponent().path == cache.directory.path)
        #expect(try cache.stage(original) == first, "an unchanged file reuses its copy")

        // A rebuilt plugin (new file, new inode and time) gets a new path, so dlopen loads it anew.
        try FileManager.default.removeItem(at: original)
        try folder.add("AboutModule")
        #expect(try cache.stage(original) != first)
    }

    @Test("a file rewritten in place with its size and modification time kept gets a new copy, with the new bytes")
    func rewrittenInPlace() throws {
        let folder = try PluginFolder()
        let original = try folder.add("AboutModule")
        let cache = PluginCache(directory: folder.temp.path("cache"))
        let first = try cache.stage(original)
        let stamp = try FileManager.default.attributesOfItem(atPath: original.path)[.modificationDate] as? Date

        // The same length, one byte changed in place, the modification time set back: only the
        // change time (which nobody can set back) tells.
        var bytes = try Data(contentsOf: original)
        bytes[bytes.count - 1] ^= 0xFF
        let handle = try FileHandle(forWritingTo: original)
        try handle.write(contentsOf: bytes)
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: try #require(stamp)], ofItemAtPath: original.path)

        let second = try cache.stage(original)
        #expect(second != first, "a new copy")
        #expect(try Data(contentsOf: second) == bytes, "holding the bytes on disk now")
    }

    @Test("a file with a modification time far in the future (or past) still loads")
    func extremeTimestamps() throws {
        let folder = try PluginFolder()
        let about = try folder.add("AboutModule")
        for seconds in [10_000_000_000.0, -10_000_000_000.0] { // the years 2286 and 1653
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: about.path)
            let runtime = try folder.runtime()
            #expect(runtime.record("libAboutModule.so")?.isActive == true)
        }
    }

    @Test("the same file reached through two folders is loaded once, not reported as its own duplicate")
    func sameFileTwice() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        let runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [folder.plugins, folder.plugins], bundledDirectory: nil,
            cacheDirectory: folder.temp.path("cache"), dataDirectory: folder.temp.path("data")))
        runtime.loadPlugins()
        #expect(runtime.registry.plugins.count == 1)
        #expect(runtime.registry.plugins.allSatisfy { $0.isActive })
    }

    @Test("a library stripped of its section headers is checked through the loader instead, and loads")
    func withoutSectionHeaders() throws {
        let folder = try PluginFolder()
        var bytes = [UInt8](try Data(contentsOf: BuildProducts.require(BuildProducts.library("AboutModule"))))
        for offset in 40..<48 { bytes[offset] = 0 } // e_shoff
        for offset in 60..<64 { bytes[offset] = 0 } // e_shnum, e_shstrndx
        try folder.write(bytes, as: "libAboutModule.so")
        let runtime = try folder.runtime()
        let about = try #require(runtime.record("libAboutModule.so"))
        #expect(about.isActive, "\(String(describing: about.error))")
        #expect(runtime.makeSession().open("about").screen.title == "About Den")
    }

    @Test("only lib<Name>Module.so files count in the bundled build folder")
    func bundledFolderRule() throws {
        let discovery = PluginDiscovery(explicitDirectories: [], bundledDirectory: BuildProducts.directory)
        let names = discovery.candidates().found.map(\.file.lastPathComponent)
        #expect(names.contains("libAboutModule.so"))
        #expect(names.allSatisfy { $0.hasPrefix("lib") && $0.hasSuffix("Module.so") })
        #expect(!names.contains { $0.contains("Fixture") })
        #expect(PluginDiscovery.moduleName(fromFile: "libJogsModule.so") == "Jogs")
        #expect(PluginDiscovery.moduleName(fromFile: "libModule.so") == nil)
        #expect(PluginDiscovery.moduleName(fromFile: "libGRDB.so") == nil)
        #expect(PluginDiscovery.moduleName(fromFile: "libXModule.so") == "X")
        #expect(PluginDiscovery.moduleName(fromFile: "libCaféModule.so") == "Café")
        #expect(PluginDiscovery.moduleName(fromFile: "libA\u{301}Module.so") == "A\u{301}")
        #expect(PluginDiscovery.moduleName(fromFile: "lib\u{301}XModule.so") == nil, "the accent joins the b: no lib prefix")
    }

    @Test("a named plugin folder that does not exist is reported, and the other folders still load")
    func missingFolder() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        let runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [URL(fileURLWithPath: "/nonexistent/den-plugins"), folder.plugins], bundledDirectory: nil,
            cacheDirectory: folder.temp.path("cache"), dataDirectory: folder.temp.path("data")))
        runtime.loadPlugins()
        #expect(runtime.folderProblems.map(\.directory) == ["/nonexistent/den-plugins"])
        #expect(runtime.folderProblems.first?.description.contains("no such folder") == true)
        #expect(runtime.record("libAboutModule.so")?.isActive == true)
    }

    @Test("--plugins compares ids without case, '-' and '_' against lib<Name>Module.so names")
    func selectionNormalisesNames() {
        #expect(PluginDiscovery.hint("countertools", mayMatch: ["counter-tools"]))
        #expect(PluginDiscovery.hint("about", mayMatch: ["About"]))
        #expect(!PluginDiscovery.hint("main", mayMatch: ["about"]))
    }

    @Test("--plugins selects modules by id")
    func selection() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        try folder.add("DenFixtureConflictingRoute")
        let runtime = try folder.runtime(selecting: ["about"])
        #expect(runtime.registry.plugins.compactMap(\.id) == ["about"])
        #expect(runtime.missingSelectedModules.isEmpty)

        let none = try folder.runtime(selecting: ["jogs"])
        #expect(none.registry.routes.isEmpty)
        #expect(none.missingSelectedModules == ["jogs"])
    }
}
