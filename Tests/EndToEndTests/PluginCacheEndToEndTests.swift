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
        let bundled = BuildProducts.bundledModuleFiles
        #expect(result.stdout.contains("\(bundled.count) active, 3 failed"))
        let copies = cacheFiles(den)
        #expect(copies.count == bundled.count, "\(copies)")
        let prefixes = bundled.map { $0.dropLast(".so".count) + "-" }
        #expect(copies.allSatisfy { copy in prefixes.contains { copy.hasPrefix($0) } })
    }

    @Test("den cache shows the cache; den cache clean empties it and den copies again")
    func cleanCommand() throws {
        let den = try DenCommand()
        let bundled = BuildProducts.bundledModuleFiles.count
        // --eager loads every module (by default only About would be loaded, and copied).
        _ = try den.run(["render", "about", "--eager"])
        #expect(cacheFiles(den).count == bundled)
        // A file den did not make is never removed, even in its cache folder.
        try den.temp.write(Data("keep".utf8), to: "notes.so", in: den.temp.path("cache"))
        let show = try den.run(["cache"])
        #expect(show.status == 0)
        #expect(show.stdout.contains("Plugin cache: \(den.temp.path("cache").path)"))
        #expect(show.stdout.contains("\(bundled) copies"))
        // A lazy start writes the module registry cache (lazy loading's manifests) beside the copies.
        #expect(try den.run(["render", "about"]).status == 0)
        let registryCache = den.temp.path("cache").appendingPathComponent("manifests-v5.tsv").path
        #expect(FileManager.default.fileExists(atPath: registryCache))
        let clean = try den.run(["cache", "clean"])
        #expect(clean.status == 0)
        #expect(clean.stderr.isEmpty, "piped: no progress line: \(clean.stderr.debugDescription)")
        #expect(clean.stdout.hasPrefix("Removed \(bundled) copies"))
        #expect(clean.stdout.contains("and the module registry cache"))
        #expect(cacheFiles(den) == ["notes.so"])
        #expect(!FileManager.default.fileExists(atPath: registryCache), "den cache clean removes the registry cache too")
        #expect(try den.run(["render", "about", "--eager"]).status == 0)
        #expect(cacheFiles(den).count == bundled + 1)
        let empty = try den.run(["cache", "clean", "--cache-dir", ""])
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("--cache-dir '' names no folder"))
    }
}
