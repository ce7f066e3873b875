@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

/// A saved session brought back (`NavigationSession.restore`, what den serve does after a restart
/// or on another host): each screen gets its module's snapshot back, or starts fresh and says so.
@Suite("A saved stack, restored")
struct SavedStackRestoreSpec {
    /// Counts presses; keeps the count as its state, and refuses a state that is not a number.
    final class Counter: ModuleInstance {
        var count = 0
        func handle(_ event: ModuleEvent) throws -> ModuleReply {
            if case .action("press", _) = event { count += 1 }
            return ModuleReply(screen: Screen(title: "Count: \(count)", elements: []))
        }
        func snapshot() throws -> Data { Data(String(count).utf8) }
        func restore(_ state: Data) throws {
            guard let value = Int(String(decoding: state, as: UTF8.self)) else { throw ModuleError.failed("not a count") }
            count = value
        }
    }

    let temp: TemporaryDirectory
    let runtime: DenRuntime

    init() throws {
        temp = try TemporaryDirectory("den-saved-stack")
        runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [], bundledDirectory: nil, cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data")))
        runtime.installInProcess(ModuleDefinition(id: "counter", version: "1.0.0", summary: "Counts", routes: [
            RouteDefinition("counter") { _ in Counter() },
        ]))
    }

    private func pressedTwice() -> SavedNavigation {
        let session = runtime.makeSession()
        session.open("counter")
        session.send(action: "press", fields: [:])
        session.send(action: "press", fields: [:])
        return session.saved()
    }

    @Test("a snapshot the module takes back shows the screen as it was, with no message")
    func restored() {
        let view = runtime.makeSession().restore(pressedTwice())
        #expect(view.screen.title == "Count: 2")
        #expect(view.screen.bannerTexts.isEmpty, "\(view.screen)")
    }

    @Test("a snapshot the module refuses starts the screen fresh, and the screen says so")
    func refused() throws {
        var saved = pressedTwice()
        saved.stack[saved.stack.count - 1].snapshot = Data("not a count".utf8).base64EncodedString()
        let view = runtime.makeSession().restore(saved)
        #expect(view.screen.title == "Count: 0")
        let said = view.screen.bannerTexts.joined()
        #expect(said.contains("This screen starts fresh: its module could not take back what was saved"), "\(view.screen)")
    }
}
