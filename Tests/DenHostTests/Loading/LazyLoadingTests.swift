@testable import DenHost
import DenHotSwap
import DenKit
@testable import DenModuleFiles
import DenSupport
import DenTestSupport
import Foundation
import Testing

/// Lazy loading: modules with a manifest are installed from it and loaded when one of their
/// routes is first built; the registry cache remembers manifests by path, size, mtime and inode.
@Suite("Lazy loading and the module registry cache")
struct LazyLoadingTests {
    private func lazyRuntime(_ folder: PluginFolder, selecting modules: Set<String>? = nil) -> DenRuntime {
        var configuration = HostConfiguration(pluginDirectories: [folder.plugins], bundledDirectory: nil, selectedModules: modules,
                                              cacheDirectory: folder.temp.path("cache"), dataDirectory: folder.temp.path("data"))
        configuration.loadsLazily = true
        let runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins()
        return runtime
    }

    /// Whether About's page lists itself among the installed modules (its plugins.list call was answered).
    private func listsAbout(_ view: SessionView) -> Bool {
        view.screen.elements.contains {
            if case .list(let list) = $0 { list.items.contains { $0.title == "about 1.0.0" } } else { false }
        }
    }

    /// The plugin copies staged in the cache: one appears only when a file is really loaded.
    private func stagedCopies(_ folder: PluginFolder) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.temp.path("cache").path)) ?? []
        return names.filter { $0.hasSuffix(".so") }.sorted()
    }

    @Test("a module with a manifest is installed from it, and loaded when its route is first built")
    func loadsOnFirstBuild() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        let runtime = lazyRuntime(folder)

        let record = try #require(runtime.record("libAboutModule.so"))
        #expect(record.isActive && !record.isLoaded)
        #expect(record.summaryDocument.loadedAt == nil, "what modules see: no load time before the load")
        #expect(record.id == "about" && record.version == "1.0.0")
        #expect(runtime.registry.routes.map(\.pattern) == ["about"])
        #expect(stagedCopies(folder) == [], "nothing was copied or loaded yet")
        #expect((try? runtime.registry.resolve("about").get()) != nil, "resolving loads nothing")
        #expect(stagedCopies(folder) == [])

        let view = runtime.makeSession().open("about")
        #expect(view.errors == [])
        #expect(view.screen.title.contains("About"), "\(view.screen.title)")
        // Loaded on first use, it works as loaded at start: About's plugins.list call was
        // answered. (That a lazy module's builders get its own den_host, not the stand-in of a
        // module not loaded yet, is held by CPluginEndToEndTests: a C module's builder reads its
        // saved count through the host it is given.)
        #expect(listsAbout(view), "About could not list the modules through its host: \(view.screen.elements)")
        #expect(runtime.record("libAboutModule.so")?.isLoaded == true)
        #expect(runtime.record("libAboutModule.so")?.summaryDocument.loadedAt != nil)
        #expect(stagedCopies(folder).count == 1)
        // Later builds reuse the loaded builders.
        #expect(runtime.makeSession().open("about").screen.title == view.screen.title)
    }

    @Test("a module installed from its manifest swaps like any, before and after its first load",
          arguments: [false, true])
    func swapsWhenLazy(openedFirst: Bool) throws {
        let folder = try PluginFolder()
        let file = try folder.add("AboutModule")
        let runtime = lazyRuntime(folder)
        let swapper = HotSwapper(runtime: runtime) // it remembers the files as they are now
        let session = runtime.makeSession()
        if openedFirst { #expect(session.open("about").errors == []) }
        #expect(runtime.record("libAboutModule.so")?.isLoaded == openedFirst)

        // A rebuilt library: the same code under a new inode, so a new image.
        let partial = folder.plugins.appendingPathComponent(".libAboutModule.so.tmp")
        try FileManager.default.copyItem(at: file, to: partial)
        #expect(rename(partial.path, file.path) == 0)
        let report = swapper.swap(file)
        #expect(report.outcome == .swapped, "\(report)")

        // The new version serves every session, with its own host: About lists the modules.
        let view = runtime.makeSession().open("about")
        #expect(view.errors == [])
        #expect(listsAbout(view), "\(view.screen.elements)")
        let record = try #require(runtime.registry.plugins.last { $0.id == "about" && $0.isActive })
        #expect(record.generation == 2 && record.isLoaded)
        #expect(runtime.registry.plugins.filter { $0.id == "about" && $0.isActive }.count == 1)
    }

    @Test("a plugin without a manifest is loaded at start, as before")
    func withoutManifest() throws {
        let folder = try PluginFolder()
        try folder.add("DenFixtureGuardedRoute")
        let runtime = lazyRuntime(folder)
        let record = try #require(runtime.record("libDenFixtureGuardedRoute.so"))
        #expect(record.isActive && record.isLoaded)
    }

    @Test("--plugins skips a module by its manifest's id without running its code")
    func selectionByManifest() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule", as: "about-renamed.so") // the file name gives no hint
        let runtime = lazyRuntime(folder, selecting: ["main"])
        #expect(runtime.registry.plugins.isEmpty)
        #expect(runtime.foundModules == ["about"], "the id comes from the manifest")
        #expect(stagedCopies(folder) == [])
    }

    @Test("conflicts and duplicate ids are found from manifests, before anything loads")
    func duplicateFromManifest() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        try folder.add("AboutModule", as: "libAboutAgainModule.so")
        let runtime = lazyRuntime(folder)
        let records = runtime.registry.plugins
        #expect(records.count == 2)
        #expect(records.filter(\.isActive).count == 1)
        let refused = try #require(records.first { !$0.isActive }?.error)
        guard case .duplicateModule(let id, _) = refused.cause else {
            Issue.record("expected a duplicate id, got \(refused)")
            return
        }
        #expect(id == "about")
        #expect(stagedCopies(folder) == [], "found without loading either file")
    }

    @Test("the second start reads manifests from the cache; a replaced file is noticed and read again")
    func registryCache() throws {
        let folder = try PluginFolder()
        let file = try folder.add("AboutModule", as: "libThingModule.so")
        let cacheFolder = folder.temp.path("cache")

        var first = ManifestIndex(directory: cacheFolder)
        #expect(first.entry(for: file)?.checkedManifest?.id == "about")
        #expect(first.misses == 1 && first.hits == 0)
        #expect(first.save() == nil)

        var second = ManifestIndex(directory: cacheFolder)
        #expect(second.entry(for: file)?.checkedManifest?.id == "about")
        #expect(second.hits == 1 && second.misses == 0, "an unchanged file comes from the cache")

        // Replace the file (another module under the same name): the stale entry must not be used.
        try FileManager.default.removeItem(at: file)
        try folder.add("LoginModule", as: "libThingModule.so")
        var third = ManifestIndex(directory: cacheFolder)
        #expect(third.entry(for: file)?.checkedManifest?.id == "login")
        #expect(third.misses == 1 && third.hits == 0)
        _ = third.save()

        // And the runtime installs the new module from the refreshed entry.
        let runtime = lazyRuntime(folder)
        #expect(runtime.record("libThingModule.so")?.id == "login")
    }

    @Test("a file rewritten in place (same inode, new size and time) is read again")
    func rewrittenInPlace() throws {
        let folder = try PluginFolder()
        let file = try folder.add("AboutModule", as: "libThingModule.so")
        var index = ManifestIndex(directory: folder.temp.path("cache"))
        _ = index.entry(for: file)
        _ = index.save()
        let login = try Data(contentsOf: BuildProducts.library("LoginModule"))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: login)
        try handle.close()
        var again = ManifestIndex(directory: folder.temp.path("cache"))
        #expect(again.entry(for: file)?.checkedManifest?.id == "login")
        #expect(again.misses == 1)
    }

    @Test("a run that names other folders keeps their files' entries; a removed file's entry goes")
    func entriesOfOtherRuns() throws {
        let folder = try PluginFolder()
        let about = try folder.add("AboutModule")
        let login = try folder.add("LoginModule")
        let cacheFolder = folder.temp.path("cache")
        var first = ManifestIndex(directory: cacheFolder)
        _ = first.entry(for: about)
        _ = first.save()
        var second = ManifestIndex(directory: cacheFolder) // another run, another folder
        _ = second.entry(for: login)
        _ = second.save()
        var third = ManifestIndex(directory: cacheFolder)
        _ = third.entry(for: about)
        _ = third.entry(for: login)
        #expect(third.hits == 2 && third.misses == 0, "both entries were kept")

        try FileManager.default.removeItem(at: login)
        let other = try folder.add("JogsModule")
        var fourth = ManifestIndex(directory: cacheFolder)
        _ = fourth.entry(for: other)
        _ = fourth.save()
        let text = try String(contentsOf: fourth.file, encoding: .utf8)
        #expect(!text.contains("libLoginModule.so"), "the removed file's entry went")
        #expect(text.contains("libAboutModule.so") && text.contains("libJogsModule.so"))
    }

    @Test("a damaged cache file is ignored and rewritten")
    func damagedCache() throws {
        let folder = try PluginFolder()
        try folder.add("AboutModule")
        let cacheFolder = try folder.temp.folder("cache")
        let cacheFile = cacheFolder.appendingPathComponent(ManifestIndex.fileName)
        try Data("{not json".utf8).write(to: cacheFile)

        let runtime = lazyRuntime(folder)
        #expect(runtime.record("libAboutModule.so")?.isActive == true)
        let rewritten = try String(contentsOf: cacheFile, encoding: .utf8)
        #expect(rewritten.hasPrefix(RegistryCacheFormat.header + "\n"), "\(rewritten.prefix(80))")
        #expect(rewritten.contains("libAboutModule.so\t"))
    }

    @Test("a start reads only its own files' cache lines; a damaged line of another file is dropped by the next save")
    func linesReadOnDemand() throws {
        let folder = try PluginFolder()
        let about = try folder.add("AboutModule")
        var first = ManifestIndex(directory: folder.temp.path("cache"))
        _ = first.entry(for: about)
        _ = first.save()
        // Sorted after the folder's own lines, as a save writes them.
        let damaged = "/zz/elsewhere/libGoneModule.so\tnot-a-number\t2\t3\t4\t5\t2\tt\t\t\t\t\t\t\t\n"
        try (String(contentsOf: first.file, encoding: .utf8) + damaged).write(to: first.file, atomically: true, encoding: .utf8)

        var second = ManifestIndex(directory: folder.temp.path("cache"))
        #expect(second.entry(for: about)?.checkedManifest?.id == "about")
        #expect(second.hits == 1 && second.loadProblem == nil, "the other file's line was not read")
        #expect(second.save() == nil)
        #expect(try String(contentsOf: second.file, encoding: .utf8).contains("libGoneModule"), "nothing changed: not rewritten")

        let login = try folder.add("LoginModule")
        var third = ManifestIndex(directory: folder.temp.path("cache"))
        _ = third.entry(for: about)
        _ = third.entry(for: login)
        #expect(third.save() == nil)
        #expect(third.loadProblem?.contains("1 damaged line") == true, "\(third.loadProblem ?? "no problem")")
        let saved = try String(contentsOf: third.file, encoding: .utf8)
        #expect(!saved.contains("libGoneModule") && saved.contains("libLoginModule.so\t") && saved.contains("libAboutModule.so\t"))
    }

    /// A folder with About and Login, and a registry cache that remembers both.
    private static func cacheOfAboutAndLogin() throws -> (folder: PluginFolder, about: URL, login: URL, cacheFile: URL) {
        let folder = try PluginFolder()
        let about = try folder.add("AboutModule")
        let login = try folder.add("LoginModule")
        var index = ManifestIndex(directory: folder.temp.path("cache"))
        _ = index.entry(for: about)
        _ = index.entry(for: login)
        _ = index.save()
        return (folder, about, login, index.file)
    }

    @Test("a cache file whose lines are out of order (edited by hand) is written again in order")
    func reorderedFileIsRewritten() throws {
        let (folder, about, login, cacheFile) = try Self.cacheOfAboutAndLogin()
        var lines = try String(contentsOf: cacheFile, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines.removeFirst()
        try ([header] + lines.reversed()).joined(separator: "\n").appending("\n").write(to: cacheFile, atomically: true, encoding: .utf8)

        var second = ManifestIndex(directory: folder.temp.path("cache"))
        #expect(second.entry(for: about)?.checkedManifest?.id == "about")
        #expect(second.entry(for: login)?.checkedManifest?.id == "login")
        #expect(second.hits == 2)
        #expect(second.save() == nil)
        let saved = try #require(RegistryCacheFormat.lines(try Data(contentsOf: second.file)))
        #expect(saved.wasInOrder && saved.count == 2)
    }

    @Test("an unchanged file's line is read each time it is asked for, and saved as it was; a damaged one of a file in use is counted once and rewritten")
    func linesAskedForTwice() throws {
        let (folder, about, login, cacheFile) = try Self.cacheOfAboutAndLogin()
        // Login's line loses its number fields: damaged.
        let text = try String(contentsOf: cacheFile, encoding: .utf8)
        let damagedText = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.contains("libLoginModule.so\t") else { return String(line) }
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            fields[2] = "not-a-number"
            return fields.joined(separator: "\t")
        }.joined(separator: "\n")
        try damagedText.write(to: cacheFile, atomically: true, encoding: .utf8)

        var second = ManifestIndex(directory: folder.temp.path("cache"))
        #expect(second.entry(for: about)?.checkedManifest?.id == "about")
        #expect(second.entry(for: about)?.checkedManifest?.id == "about", "asked again: the same answer")
        #expect(second.hits == 2)
        #expect(second.entry(for: login)?.checkedManifest?.id == "login", "a damaged line: read from the file")
        #expect(second.entry(for: login)?.checkedManifest?.id == "login")
        #expect(second.misses == 1 && second.hits == 3, "read anew once, then kept")
        #expect(second.save() == nil)
        #expect(second.loadProblem?.contains("1 damaged line") == true, "\(second.loadProblem ?? "no problem")")

        var third = ManifestIndex(directory: folder.temp.path("cache"))
        #expect(third.entry(for: about)?.checkedManifest?.id == "about")
        #expect(third.entry(for: login)?.checkedManifest?.id == "login")
        #expect(third.hits == 2 && third.misses == 0 && third.loadProblem == nil, "both lines saved whole")
    }

    @Test("a registry cache of an earlier format is never read, and is removed by the next save")
    func earlierFormat() throws {
        let folder = try PluginFolder()
        let file = try folder.add("AboutModule")
        // A current entry for the file, moved to the version 1 name: were it read, it would be a hit.
        var index = ManifestIndex(directory: folder.temp.path("cache"))
        _ = index.entry(for: file)
        _ = index.save()
        let older = folder.temp.path("cache").appendingPathComponent(try #require(ManifestIndex.olderFileNames.first))
        try FileManager.default.moveItem(at: index.file, to: older)

        var fresh = ManifestIndex(directory: folder.temp.path("cache"))
        _ = fresh.entry(for: file)
        #expect(fresh.hits == 0 && fresh.misses == 1, "the file was read again, not taken from the old cache")
        _ = fresh.save()
        #expect(FileManager.default.fileExists(atPath: fresh.file.path))
        #expect(!FileManager.default.fileExists(atPath: older.path), "the old format's file is gone")
    }

    @Test("a cache entry that lies (a manifest the host refuses) is not trusted")
    func lyingCache() throws {
        let folder = try PluginFolder()
        let file = try folder.add("AboutModule")
        var index = ManifestIndex(directory: folder.temp.path("cache"))
        _ = index.entry(for: file)
        _ = index.save()
        let cacheFile = index.file
        // The id in either form the cache keeps a manifest in: JSON, or plain fields.
        let text = try String(contentsOf: cacheFile, encoding: .utf8).replacingOccurrences(of: "\"about\"", with: "\"../etc\"")
            .replacingOccurrences(of: "\tabout\t", with: "\t../etc\t")
        #expect(text.contains("../etc"))
        try text.write(to: cacheFile, atomically: true, encoding: .utf8)

        let runtime = lazyRuntime(folder)
        let record = try #require(runtime.record("libAboutModule.so"))
        #expect(record.isLoaded && record.id == "about", "loaded at start from the file itself")
    }

    @Test("a file replaced after start is refused at first build, saying so; nothing crashes")
    func replacedAfterStart() throws {
        let folder = try PluginFolder()
        let file = try folder.add("AboutModule", as: "libThingModule.so")
        let runtime = lazyRuntime(folder)
        try FileManager.default.removeItem(at: file)
        try folder.add("LoginModule", as: "libThingModule.so")

        let view = runtime.makeSession().open("about")
        #expect(view.screen.title == "Cannot open about")
        let banner = "\(view.screen.elements)"
        #expect(banner.contains("changed after den started"), "\(banner)")
        let record = try #require(runtime.registry.plugins.first { $0.id == "about" })
        #expect(record.error?.fix == "restart den to load the new version of the file")
    }

    @Test("a first build takes the manifest the cache read from this very version, and reads the file when the version differs")
    func knownManifest() throws {
        // A manifest that is not the file's: taken on the cache's word, the registration is held
        // to it; read from the file, it is never seen.
        func altered(_ file: URL) throws -> ModuleManifest {
            var manifest = try #require(ModuleFileInspection.inspect(file).manifest)
            manifest.summary = "not what the file says"
            return manifest
        }
        let same = try PluginFolder()
        let file = try same.add("AboutModule")
        let trusted = PluginLoader.KnownManifest(stamp: try #require(FileStamp(file.path)), manifest: try altered(file))
        do {
            _ = try lazyRuntime(same).loader.load(file, known: trusted)
            Issue.record("the registration was not held to the cached manifest")
        } catch {
            #expect(error.cause == .manifestMismatch(["the manifest's summary \"not what the file says\" differs from the registered \"\(try #require(ModuleFileInspection.inspect(file).manifest).summary)\""]))
        }

        let other = try PluginFolder()
        let otherFile = try other.add("AboutModule")
        var info = stat()
        #expect(stat(otherFile.path, &info) == 0)
        info.st_size += 1 // another version of the file than the one the manifest was read from
        let plugin = try lazyRuntime(other).loader.load(otherFile,
                                                        known: .init(stamp: FileStamp(info), manifest: try altered(otherFile)))
        #expect(plugin.manifest?.summary != "not what the file says")
        #expect(plugin.manifest?.summary == plugin.summary)
    }
}
