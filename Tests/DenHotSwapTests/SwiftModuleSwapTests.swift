@testable import DenHost
import DenHotSwap
import DenKit
import DenTestSupport
import Foundation
import Testing

@Suite("Hot swap of a Swift module: DenKit's CodableState carries the state")
struct SwiftModuleSwapTests {
    @Test("Main keeps its currencies and amount across a swap, in every session")
    func mainKeepsState() throws {
        let temp = try TemporaryDirectory("den-swift-swap")
        let plugins = try temp.folder("plugins")
        let main = try BuildProducts.require(BuildProducts.library("MainModule"))
        try temp.copy(main, into: plugins)
        let runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [plugins], bundledDirectory: nil, selectedModules: nil,
            cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data")))
        runtime.loadPlugins()
        let swapper = HotSwapper(runtime: runtime)
        let first = runtime.makeSession(), second = runtime.makeSession()
        first.open("convert/250/usd/jpy")
        second.open("main")
        let typed = second.send(change: "amount", fields: ["amount": "42", "from": "GBP", "to": "CHF"])
        #expect(typed.screen.fields.first { $0.id == "amount" }?.value == "42")

        // A rebuilt library: the same code in a new file, so a new image.
        let file = plugins.appendingPathComponent("libMainModule.so")
        let partial = plugins.appendingPathComponent(".libMainModule.so.tmp")
        try FileManager.default.copyItem(at: main, to: partial)
        #expect(rename(partial.path, file.path) == 0)
        let report = swapper.swap(file)
        #expect(report.outcome == .swapped, "\(report)")
        #expect(report.statesKept == 2)
        #expect(report.rebuiltFresh.isEmpty)

        let fields = { (view: SessionView?) in Dictionary(uniqueKeysWithValues: (view?.screen.fields ?? []).map { ($0.id, $0.value) }) }
        #expect(fields(first.current)["amount"] == "250")
        #expect(fields(first.current)["from"] == "USD")
        #expect(fields(first.current)["to"] == "JPY")
        #expect(fields(second.current)["amount"] == "42")
        #expect(fields(second.current)["from"] == "GBP")
        #expect(runtime.registry.plugins.first { $0.id == "main" }?.generation == 2)
    }
}
