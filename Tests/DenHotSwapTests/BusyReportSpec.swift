import DenHost
@testable import DenHotSwap
import DenTestSupport
import Foundation
import Testing

@Suite("A running den tells den plugins elsewhere which module is the busiest")
struct BusyReportSpec {
    final class Said: @unchecked Sendable {
        let lock = NSLock()
        var text: String?
        var value: String? {
            get { lock.withLock { text } }
            set { lock.withLock { text = newValue } }
        }
    }

    func status(_ cache: URL) -> RunningDenStatus? {
        let file = RunningDenStatus.folder(cache: cache).appendingPathComponent("den-\(getpid()).json")
        return (try? Data(contentsOf: file)).flatMap { try? JSONDecoder().decode(RunningDenStatus.self, from: $0) }
    }

    func waitFor(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    @Test("no file while nobody is the busiest; the module once one is; the file is gone when den stops")
    func writesWhenBlameChanges() throws {
        let temp = try TemporaryDirectory("den-busy")
        let runtime = DenRuntime(configuration: HostConfiguration(pluginDirectories: [], bundledDirectory: nil, selectedModules: nil,
                                                                  cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data")))
        let said = Said()
        let report = BusyReport(runtime: runtime, watching: false, period: .milliseconds(20), busiest: { said.value })
        try report.start()
        Thread.sleep(forTimeInterval: 0.1)
        #expect(status(temp.path("cache")) == nil, "nothing to say: no file")
        said.value = "jogs took 83% of den's module time over the last minute (41 s of 49 s)"
        #expect(waitFor { status(temp.path("cache"))?.busiest == said.value })
        #expect(status(temp.path("cache"))?.watching == false)
        said.value = nil
        #expect(waitFor { status(temp.path("cache")) != nil && status(temp.path("cache"))?.busiest == nil }, "a blame that ends is cleared")
        report.stop()
        #expect(status(temp.path("cache")) == nil)
    }
}
