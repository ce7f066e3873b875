import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

/// A module that shows what its builder was given for the query string.
private final class QueryEchoInstance: ModuleInstance {
    let lines: [String]
    init(_ lines: [String]) { self.lines = lines }

    func handle(_ event: ModuleEvent) throws -> ModuleReply {
        ModuleReply(screen: Screen(title: "Query", elements: lines.map { .text($0) }))
    }
}

@Suite("Repeated query keys reach the module")
struct RepeatedQueryTests {
    @Test("every value of a repeated key arrives in order; the single-value view keeps the last")
    func repeatedKeys() throws {
        let temp = try TemporaryDirectory("den-query")
        let runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [], bundledDirectory: nil, cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data")))
        try #require(runtime.installInProcess(ModuleDefinition(id: "query", version: "1.0.0", summary: "Echoes the query", routes: [
            RouteDefinition("tags") { context in
                QueryEchoInstance(["all: \(context.all("tag").joined(separator: ","))", "last: \(context.query["tag"] ?? "-")",
                                   "none: \(context.all("missing").count)"])
            },
        ])).error == nil)
        let view = runtime.makeSession().open("tags?tag=b&tag=a&tag=b%20c")
        #expect(view.screen.elements == [.text("all: b,a,b c"), .text("last: b c"), .text("none: 0")])
    }
}
