@testable import DenHost
import DenHotSwap
import DenKit
import DenTestSupport
import Foundation
import Synchronization
import Testing

/// A running den keeps modules' requirements true across hot swaps (docs/CATALOG.md,
/// "Requirements"): a version whose requirement is unmet waits, and lands once what it needs has;
/// a module left outside what a dependent requires keeps serving, but the dependent's calls of
/// its exports are refused with DEN_ERR_VERSION until the dependent is updated too.
@Suite("Requirements across hot swaps")
struct RequirementSwapTests {
    static let fixture = try! SwapFixture(source: SwapFixture.requiringSource)

    /// `-D` flags for module `id` at `version` (`SwapFixture.requiringModule`).
    static func module(_ id: String, _ version: String, requires: [String: String] = [:], exports: [String] = []) -> [String] {
        SwapFixture.requiringModule(id, version, requires: requires, exports: exports)
    }

    /// reqbase 1.2.0 and requser 1.0.0 (requires reqbase ^1, may call its exports), loaded.
    struct App {
        let temp: TemporaryDirectory
        let plugins: URL
        let runtime: DenRuntime
        let swapper: HotSwapper
        /// The reports of files that landed after waiting for their requirements.
        let retried = Reports()

        init(lazy: Bool = false) throws {
            temp = try TemporaryDirectory("den-requirements")
            plugins = try temp.folder("plugins")
            try fixture.install(module("reqbase", "1.2.0"), into: plugins, as: "libBase.so")
            try fixture.install(module("requser", "1.0.0", requires: ["reqbase": "^1"], exports: ["reqbase.*"]), into: plugins, as: "libUser.so")
            var configuration = HostConfiguration(pluginDirectories: [plugins], bundledDirectory: nil, selectedModules: nil,
                                                  cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data"))
            configuration.loadsLazily = lazy
            runtime = DenRuntime(configuration: configuration)
            runtime.loadPlugins()
            let retried = retried
            swapper = HotSwapper(runtime: runtime, onRetryLanded: { report in retried.list.withLock { $0.append(report) } })
        }

        /// requser calls reqbase's export, which logs: "<status> <answer or message>".
        func userCallsBase() throws -> String {
            let request = #"{"name": "reqbase.call", "arguments": ["log", "{\"level\": \"info\", \"message\": \"hi\"}"]}"#
            let value = try runtime.callExport("requser.call", arguments: [.string("exports.call"), .string(request)]).get()
            guard case .string(let text) = value else { throw Unexpected(value: value) }
            return text
        }

        func version(of id: String) -> String? {
            record(of: id)?.version
        }

        func record(of id: String) -> PluginRecord? {
            runtime.registry.plugins.last { $0.id == id && $0.isActive }
        }

        func swap(_ name: String, _ flags: [String]) throws -> HotSwapReport {
            swapper.swap(try fixture.install(flags, into: plugins, as: name))
        }
    }

    struct Unexpected: Error { var value: ExportValue }

    final class Reports: Sendable {
        let list = Mutex<[HotSwapReport]>([])
    }

    @Test("a swap to a version outside a dependent's range serves, and the dependent's calls of it are refused with DEN_ERR_VERSION")
    func dependentCallsRefused() throws {
        let app = try App()
        #expect(try app.userCallsBase().hasPrefix(#"0 {"result":"0 "#))
        let report = try app.swap("libBase.so", Self.module("reqbase", "2.0.0"))
        #expect(report.outcome == .swapped, "\(report)")
        #expect(app.version(of: "reqbase") == "2.0.0")
        let refused = try app.userCallsBase()
        #expect(refused == "5 reqbase.call was not called: requser requires reqbase ^1, but reqbase 2.0.0 is loaded", "\(refused)")
        // Back in range: the calls go through again.
        #expect(try app.swap("libBase.so", Self.module("reqbase", "1.3.0")).outcome == .swapped)
        #expect(try app.userCallsBase().hasPrefix(#"0 {"result":"0 "#))
    }

    @Test("a version whose requirement is unmet is refused while the old serves, and lands when what it needs does")
    func waitsForItsRequirement() throws {
        let app = try App()
        let early = try app.swap("libUser.so", Self.module("requser", "2.0.0", requires: ["reqbase": "^2"], exports: ["reqbase.*"]))
        guard case .refused(let error) = early.outcome else {
            Issue.record("expected a refusal, got \(early)")
            return
        }
        #expect(error.description.contains("requires reqbase ^2, but reqbase 1.2.0 is loaded"), "\(error)")
        #expect(app.version(of: "requser") == "1.0.0", "the old version serves on")
        #expect(try app.userCallsBase().hasPrefix(#"0 {"result":"0 "#))
        // reqbase 2.0.0 lands; requser 2.0.0, waiting for it, lands right after.
        #expect(try app.swap("libBase.so", Self.module("reqbase", "2.0.0")).outcome == .swapped)
        #expect(app.version(of: "requser") == "2.0.0")
        #expect(app.runtime.registry.plugins.first { $0.id == "requser" && $0.isActive }?.swapError == nil)
        #expect(try app.userCallsBase().hasPrefix(#"0 {"result":"0 "#))
    }

    @Test("a new module whose requirement is unmet is not installed until it is met")
    func newModuleWaits() throws {
        let app = try App()
        let report = try app.swap("libExtra.so", Self.module("extra", "1.0.0", requires: ["reqbase": ">=1.5"]))
        guard case .refused = report.outcome else {
            Issue.record("expected a refusal, got \(report)")
            return
        }
        #expect(app.version(of: "extra") == nil)
        #expect((try? app.runtime.registry.resolve("extra").get()) == nil)
        #expect(try app.swap("libBase.so", Self.module("reqbase", "1.5.0")).outcome == .swapped)
        #expect(app.version(of: "extra") == "1.0.0")
        #expect((try? app.runtime.registry.resolve("extra").get()) != nil)
    }

    @Test("a file that waited and then landed on its own is not swapped in again when the next module lands; the landing is reported")
    func landsOnce() throws {
        let app = try App()
        let early = try app.swap("libUser.so", Self.module("requser", "2.0.0", requires: ["reqbase": "^2"], exports: ["reqbase.*"]))
        #expect(!early.succeeded)
        // The user drops in a version that fits after all.
        #expect(try app.swap("libUser.so", Self.module("requser", "1.1.0", requires: ["reqbase": "^1"], exports: ["reqbase.*"])).outcome == .swapped)
        #expect(app.record(of: "requser")?.generation == 2)
        #expect(try app.swap("libBase.so", Self.module("reqbase", "1.5.0")).outcome == .swapped)
        #expect(app.record(of: "requser")?.generation == 2, "requser 1.1.0 serves on, not loaded a second time")
        #expect(app.retried.list.withLock { $0 }.isEmpty)

        // A new module that waits, then lands after its dependency: its report reaches the front-end.
        #expect(try !app.swap("libExtra.so", Self.module("extra", "1.0.0", requires: ["reqbase": "^3"])).succeeded)
        #expect(try app.swap("libBase.so", Self.module("reqbase", "3.0.0")).outcome == .swapped)
        let retried = app.retried.list.withLock { $0 }
        #expect(retried.map(\.moduleID) == ["extra"], "\(retried)")
        #expect(retried.first?.outcome == .installed)
    }

    @Test("a lazily installed dependent opened only after its dependency moved out of range loads, and its calls of it are refused")
    func lazyDependent() throws {
        let app = try App(lazy: true)
        #expect(app.record(of: "requser")?.isLoaded == false)
        #expect(try app.swap("libBase.so", Self.module("reqbase", "2.0.0")).outcome == .swapped)
        let refused = try app.userCallsBase()
        #expect(refused == "5 reqbase.call was not called: requser requires reqbase ^1, but reqbase 2.0.0 is loaded", "\(refused)")
        #expect(app.record(of: "requser")?.isLoaded == true)
        #expect(try app.swap("libBase.so", Self.module("reqbase", "1.4.0")).outcome == .swapped)
        #expect(try app.userCallsBase().hasPrefix(#"0 {"result":"0 "#))
    }
}
