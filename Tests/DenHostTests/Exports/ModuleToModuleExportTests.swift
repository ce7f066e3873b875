import CDenABI
@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

/// One module calling another's export by name through `exports.call`, without linking it: a
/// DenKit module installed in-process calls the real Main and Jogs plugins and the C fixture.
@Suite("Module-to-module calls through exports.call")
struct ModuleToModuleExportTests {
    /// A module whose screen shows what `HostExports` answered for the call in its route's query.
    static let caller = ModuleDefinition(id: "caller", version: "1.0.0", summary: "Calls other modules' exports", routes: [
        RouteDefinition("ask/<string:name>") { context in
            let exports = HostExports(context.host)
            let arguments = (context.queryValues["arg"] ?? []).map { ExportValue.string($0) }
            let text: String
            let name = try context.string("name")
            do {
                let value = try exports.call(name, arguments)
                text = "answer: \(value)"
            } catch let error as ExportCallError {
                text = "error \(error.status), missing \(error.isMissing): \(error.message)"
            } catch {
                text = "untyped error \(error)"
            }
            return ScriptedInstance { _ in ModuleReply(screen: Screen(title: "asked", elements: [.text(text)])) }
        },
    ], exports: [
        ExportDefinition("double_it", "(i64 n) -> i64", summary: "Doubles", function: callerDouble as DoubleFunction),
    ])

    typealias DoubleFunction = @convention(c) (UnsafeRawPointer?, Int64, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32

    func text(_ view: SessionView) -> String {
        view.screen.elements.compactMap { if case .text(let text, _) = $0 { text } else { nil } }.joined()
    }

    @Test("a Swift module calls Main's convert in the real plugin and shows 89.08")
    func callsMain() throws {
        let fixture = try ExportFixture(also: ["MainModule"])
        #expect(fixture.runtime.installInProcess(Self.caller).error == nil)
        let view = fixture.runtime.makeSession().open("ask/main.convert?arg=100&arg=USD&arg=EUR")
        // The arguments arrive as strings; convert declares f64 first, so the host refuses them.
        #expect(text(view).contains("argument 1 (amount) must be f64"), "\(text(view))")
        let exports = HostExports(HostServices.unavailable)
        #expect(throws: ExportCallError.self) { try exports.call("main.convert", []) }

        let direct = fixture.runtime.callExport("main.convert", arguments: [.f64(100), .string("USD"), .string("EUR")])
        #expect(direct.value == .string("89.08"))
        let date = fixture.runtime.callExport("main.rates_date", arguments: [])
        #expect(date.value == .string("2026-10-02"))
    }

    @Test("a missing export or module is an error the calling module can show")
    func missing() throws {
        let fixture = try ExportFixture()
        fixture.runtime.installInProcess(Self.caller)
        let view = fixture.runtime.makeSession().open("ask/main.convert")
        #expect(text(view) == "error 2, missing true: no export 'main.convert': no module 'main' exports anything; modules with exports: caller, exporter (den exports lists them; den plugins says whether a module failed to load)")
    }

    @Test("a DenKit module's own @convention(c) export is callable by others and by den call")
    func denKitExport() throws {
        let fixture = try ExportFixture()
        fixture.runtime.installInProcess(Self.caller)
        #expect(fixture.runtime.callExport("caller.double_it", words: ["21"]).value == .i64(42))
        let view = fixture.runtime.makeSession().open("ask/exporter.greet?arg=Swift")
        #expect(text(view) == "answer: Hello, Swift!")
        // C calling Swift through the host: the fixture has no manifest, so it asks for no
        // permission, and another module's export is refused before its arguments are looked at.
        let refused = fixture.runtime.callExport("exporter.call_other", words: ["caller.double_it", "x"]).failure
        #expect(refused?.message.contains("exporter may not use exports (caller.double_it): its manifest does not ask for it") == true,
                "\(String(describing: refused))")
        let ok = fixture.runtime.callExport("exporter.call_other", words: ["exporter.greet", "C"])
        #expect(ok.value == .string(#"{"result":"Hello, C!","type":"string"}"#))
    }

    @Test("an export runs in the calling screen's UI session; den call's path has none")
    func session() throws {
        let fixture = try ExportFixture()
        fixture.runtime.installInProcess(Self.caller)
        _ = try fixture.runtime.accounts.register(username: "ada", password: "correct horse")
        let session = fixture.runtime.makeSession()
        fixture.runtime.sessions.setUser("ada", of: session.id)
        #expect(text(session.open("ask/exporter.session_user")) == #"answer: {"value":"ada"}"#)
        let outside = try #require(fixture.call("exporter.session_user").failure)
        #expect(outside.message.contains("belongs to no UI session"), "\(outside.message)")
    }

    @Test("Jogs' weekly_totals answers for the session's user, and refuses den call")
    func jogsTotals() throws {
        let fixture = try ExportFixture(also: ["JogsModule"])
        fixture.runtime.installInProcess(Self.caller)
        _ = try fixture.runtime.accounts.register(username: "ada", password: "correct horse")
        let session = fixture.runtime.makeSession()
        #expect(text(session.open("ask/jogs.weekly_totals")).contains("error 2, missing false: jogs.weekly_totals failed (DEN_ERR_NOT_FOUND): nobody is logged in"))
        fixture.runtime.sessions.setUser("ada", of: session.id)
        _ = session.open("jogs/new")
        _ = session.send(action: "save", fields: ["date": "2026-01-05", "distance": "5", "duration": "30:00"])
        let answer = text(session.open("ask/jogs.weekly_totals"))
        #expect(answer.contains(#""user":"ada""#) && answer.contains(#""week":"2026-W02""#) && answer.contains(#""distance_m":5000"#), "\(answer)")
        let outside = try #require(fixture.call("jogs.weekly_totals").failure)
        #expect(outside.status == 1)
        #expect(outside.message.contains("this call has none (den call"), "\(outside.message)")
    }

    @Test("exports calling exports in a cycle are stopped at the depth limit")
    func cycle() throws {
        let fixture = try ExportFixture()
        let failure = try #require(fixture.call("exporter.recurse").failure)
        #expect(failure.message.contains("went \(ExportsService.maxDepth) levels deep"), "\(failure.message)")
    }
}

@_cdecl("den_test_caller_double")
func callerDouble(_ host: UnsafeRawPointer?, _ n: Int64, _ result: UnsafeMutableRawPointer?, _ error: UnsafeMutableRawPointer?) -> Int32 {
    DenExport.i64(result, error) {
        guard n.magnitude < Int64.max.magnitude / 2 else { throw ExportFailure.invalidArgument("\(n) is too large to double") }
        return n * 2
    }
}

/// Login's "logged in" notification through exports: the real Login plugin calls every
/// `<module>.on_login(string) -> void` after a login, in the same UI session.
@Suite("Login notifies on_login exports", .serialized)
struct LoginNotificationTests {
    static let listener = ModuleDefinition(id: "listener", version: "1.0.0", summary: "Hears logins", routes: [], exports: [
        ExportDefinition("on_login", "(string username) -> void", summary: "Records a login", function: listenerOnLogin as OnLogin),
    ])
    typealias OnLogin = @convention(c) (UnsafeRawPointer?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Int32

    @Test("logging in on Login's screen calls the listener with the user, inside the same session")
    func notified() throws {
        let fixture = try ExportFixture(also: ["LoginModule"])
        #expect(fixture.runtime.installInProcess(Self.listener).error == nil)
        _ = try fixture.runtime.accounts.register(username: "ada", password: "correct horse")
        HeardByListener.shared.reset()
        let session = fixture.runtime.makeSession()
        _ = session.open("login")
        _ = session.send(action: "log-in", fields: ["username": "ada", "password": "correct horse"])
        #expect(HeardByListener.shared.entries == ["ada (session user ada)"])
        _ = session.send(action: "log-in", fields: ["username": "ada", "password": "wrong password"])
        #expect(HeardByListener.shared.entries.count == 1, "a refused login tells nobody")
    }
}

final class HeardByListener: @unchecked Sendable {
    static let shared = HeardByListener()
    private let lock = NSLock()
    private var stored: [String] = []
    var entries: [String] { lock.withLock { stored } }
    func reset() { lock.withLock { stored = [] } }
    func add(_ entry: String) { lock.withLock { stored.append(entry) } }
}

@_cdecl("den_test_listener_on_login")
func listenerOnLogin(_ host: UnsafeRawPointer?, _ username: UnsafePointer<CChar>?, _ error: UnsafeMutableRawPointer?) -> Int32 {
    DenExport.void(error) {
        let user = try HostSessionValues(DenExport.services(host)).loggedInUser() ?? "nobody"
        HeardByListener.shared.add("\(DenExport.text(username)) (session user \(user))")
    }
}
