@testable import DenHost
import DenIsolation
import DenKit
import DenSupport
import DenTestSupport
import Foundation
import Testing

/// A module without a manifest tells its id only when its code runs. Asked to isolate it by id
/// (`--isolate crashme`, or den.hosting), den learns that id in a worker and never runs the
/// module in its own process first; a module whose id is not named comes in-process as before.
/// (Tests/Fixtures/DenFixtureCrashMe has no manifest and a builder that segfaults; the guarded
/// fixture has no manifest either.)
@Suite("Isolating a module without a manifest")
struct ManifestlessIsolationSpec {
    let folder: PluginFolder
    let log = CapturedLog()

    init() throws {
        folder = try PluginFolder()
        try folder.add("DenFixtureCrashMe")
        try folder.add("DenFixtureGuardedRoute")
    }

    func record(_ runtime: DenRuntime, _ file: String) throws -> PluginRecord {
        try #require(runtime.registry.plugins.first { $0.file.lastPathComponent == file })
    }

    @Test("--isolate names its id: it runs in a worker, and its builder's segfault ends only the worker")
    func isolatedByID() throws {
        let runtime = isolatingRuntime(folder, log: log, isolate: ["crashme"])
        let crashme = try record(runtime, "libDenFixtureCrashMe.so")
        #expect(crashme.id == "crashme")
        #expect(crashme.isolated != nil, "crashme must run isolated")
        let pid = runtime.makeSession().open("crashme/pid").screen.texts.first
        #expect(pid != nil && pid != "pid \(getpid())", "its code runs in a worker, not here: \(pid ?? "nil")")
        let crashed = runtime.makeSession().open("crashme")
        #expect(crashed.isHostScreen)
        #expect(crashed.screen.bannerTexts.contains { $0.contains("module 'crashme'") && $0.contains("SIGSEGV") }, "\(crashed.screen.bannerTexts)")
        // This test process is still here: the segfault was the worker's.
        #expect(runtime.makeSession().open("crashme/pid").screen.texts.first?.hasPrefix("pid ") == true)
    }

    @Test("a module whose id is not named still runs in den's process")
    func notNamedComesInProcess() throws {
        let runtime = isolatingRuntime(folder, log: log, isolate: ["crashme"])
        let guarded = try record(runtime, "libDenFixtureGuardedRoute.so")
        #expect(guarded.id == "guarded")
        #expect(guarded.isolated == nil)
        #expect(runtime.workers?.all.contains { $0.filePath.hasSuffix("libDenFixtureGuardedRoute.so") } != true,
                "its probing worker is gone")
        #expect(runtime.makeSession().open("lobby").screen.texts.first == "guarded builds: 0")
    }

    @Test("den.hosting's setting isolates it by id as --isolate does")
    func isolatedBySetting() throws {
        var configuration = HostConfiguration(pluginDirectories: [folder.plugins], bundledDirectory: nil,
                                              cacheDirectory: folder.temp.path("cache"), dataDirectory: folder.temp.path("data"))
        configuration.hosting.configured = [HostingSettings.name(for: "crashme"): .isolated]
        configuration.useWorkerIsolation()
        configuration.workerExecutable = BuildProducts.den.path
        let runtime = DenRuntime(configuration: configuration, logger: log.logger)
        runtime.loadPlugins()
        #expect(try record(runtime, "libDenFixtureCrashMe.so").isolated != nil)
        #expect(runtime.makeSession().open("crashme/pid").screen.texts.first != "pid \(getpid())")
    }

    @Test("when no worker can learn its id, it is not loaded at all, and its routes' 'not found' says why")
    func noWorkerNoLoad() throws {
        var configuration = HostConfiguration(pluginDirectories: [folder.plugins], bundledDirectory: nil,
                                              cacheDirectory: folder.temp.path("cache"), dataDirectory: folder.temp.path("data"))
        configuration.hosting.isolated = ["crashme"]
        configuration.useWorkerIsolation()
        configuration.workerExecutable = folder.temp.path("no-such-den").path
        let runtime = DenRuntime(configuration: configuration, logger: log.logger)
        runtime.loadPlugins()
        let crashme = try record(runtime, "libDenFixtureCrashMe.so")
        let error = try #require(crashme.error)
        #expect(error.description.contains("libDenFixtureCrashMe.so"))
        #expect(error.description.contains("it has no manifest, so den runs its entry point in a worker to learn its id"), "\(error)")
        let view = runtime.makeSession().open("crashme")
        #expect(view.screen.title == "Not found")
        #expect(view.screen.bannerTexts.contains { $0.contains("libDenFixtureCrashMe.so") && $0.contains("cannot know without a manifest") },
                "\(view.screen.bannerTexts)")
    }
}
