import DenTestSupport
import Foundation
import Testing

@Suite("The plugin cache: den cache, and no copies of failed plugins")
struct PluginCacheEndToEndTests {
    func cacheFiles(_ den: DenCommand) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: den.temp.path("cache").path)) ?? [])
            .filter { $0.hasSuffix(".so") }.sorted()
    }

    @Test("a file that failed to load leaves no copy behind")
    func failedLoadsLeaveNoCopy() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureWrongABI", "DenFixtureEntryFails", "DenFixtureUndefinedSymbol"])
        let result = try den.run(["plugins", "--plugin-dir", folder.path])
        #expect(result.stdout.contains("\(BundledModules.count) active, 3 failed"))
        let copies = cacheFiles(den)
        #expect(copies.count == BundledModules.count, "\(copies)")
        #expect(copies.allSatisfy(BundledModules.isCopy))
    }

    @Test("den cache shows the cache; den cache clean empties it and den copies again")
    func cleanCommand() throws {
        let den = try DenCommand()
        _ = try den.run(["render", "about"])
        #expect(cacheFiles(den).count == BundledModules.count)
        // A file den did not make is never removed, even in its cache folder.
        try den.temp.write(Data("keep".utf8), to: "notes.so", in: den.temp.path("cache"))
        let show = try den.run(["cache"])
        #expect(show.status == 0)
        #expect(show.stdout.contains("Plugin cache: \(den.temp.path("cache").path)"))
        #expect(show.stdout.contains("\(BundledModules.count) copies"))
        let clean = try den.run(["cache", "clean"])
        #expect(clean.status == 0)
        #expect(clean.stdout.hasPrefix("Removed \(BundledModules.count) copies"))
        #expect(cacheFiles(den) == ["notes.so"])
        #expect(try den.run(["render", "about"]).status == 0)
        #expect(cacheFiles(den).count == BundledModules.count + 1)
        let empty = try den.run(["cache", "clean", "--cache-dir", ""])
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("--cache-dir '' names no folder"))
    }
}
