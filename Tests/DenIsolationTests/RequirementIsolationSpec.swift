@testable import DenHost
import DenHotSwap
import DenIsolation
import DenKit
import DenTestSupport
import Foundation
import Testing

/// An isolated module's export calls reach den from its worker, and are held to its manifest's
/// `requires` there as in-process (docs/CATALOG.md, "Requirements").
@Suite("Requirements of an isolated caller")
struct RequirementIsolationSpec {
    static let fixture = try! SwapFixture(source: SwapFixture.requiringSource)

    @Test("requser, isolated, calls reqbase in range; after a swap out of range its call is refused with DEN_ERR_VERSION")
    func isolatedCallerHeldToRequires() throws {
        let temp = try TemporaryDirectory("den-requirements-isolated")
        let plugins = try temp.folder("plugins")
        try Self.fixture.install(SwapFixture.requiringModule("reqbase", "1.2.0"), into: plugins, as: "libBase.so")
        try Self.fixture.install(SwapFixture.requiringModule("requser", "1.0.0", requires: ["reqbase": "^1"], exports: ["reqbase.*"]),
                                 into: plugins, as: "libUser.so")
        var configuration = HostConfiguration(pluginDirectories: [plugins], bundledDirectory: nil, selectedModules: nil,
                                              cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data"))
        configuration.hosting.isolated = ["requser"]
        configuration.useWorkerIsolation()
        configuration.workerExecutable = BuildProducts.den.path
        let runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins()
        #expect(runtime.worker(ofModule: "requser")?.pid != nil, "requser runs in a worker")

        func userCallsBase() throws -> String {
            let request = #"{"name": "reqbase.call", "arguments": ["log", "{\"level\": \"info\", \"message\": \"hi\"}"]}"#
            let value = try runtime.callExport("requser.call", arguments: [.string("exports.call"), .string(request)]).get()
            guard case .string(let text) = value else { return "\(value)" }
            return text
        }
        #expect(try userCallsBase().hasPrefix(#"0 {"result":"0 "#))
        let swapper = HotSwapper(runtime: runtime)
        let report = swapper.swap(try Self.fixture.install(SwapFixture.requiringModule("reqbase", "2.0.0"), into: plugins, as: "libBase.so"))
        #expect(report.outcome == .swapped, "\(report)")
        let refused = try userCallsBase()
        #expect(refused == "5 reqbase.call was not called: requser requires reqbase ^1, but reqbase 2.0.0 is loaded", "\(refused)")
    }
}
