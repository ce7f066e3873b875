import DenKit
import Foundation
@testable import LoginModule
import Testing

/// Login's "logged in" notification: every module exporting `on_login(string) -> void` is told.
@Suite("Login tells other modules about a login")
struct LoginListenersTests {
    @Test("a login, a new account and a reset that log in notify; a refused login and a logout do not")
    func notifies() {
        let session = InMemorySessionValues()
        let auth = MockAuth(session: session)
        let heard = HeardLogins()
        let interactor = LoginInteractor(auth: auth, session: session, listeners: heard)
        interactor.logIn(Credentials(username: "alice", password: "correct horse"))
        interactor.logOut()
        auth.logInAnswer = AuthAnswer(outcome: .refused, message: "Wrong username or password.")
        interactor.logIn(Credentials(username: "alice", password: "wrong pass 1"))
        #expect(heard.names == ["alice"])
    }

    @Test("only <module>.on_login exports of type (string) -> void are called, with the username")
    func callsListeners() {
        let exports = MockExports(list: [
            ExportSummary(name: "notes.on_login", module: "notes", signature: "(string user) -> void", summary: ""),
            ExportSummary(name: "stats.on_login", module: "stats", signature: "(i64) -> void", summary: "wrong type"),
            ExportSummary(name: "stats.on_login_later", module: "stats", signature: "(string) -> void", summary: "other name"),
            ExportSummary(name: "broken.on_login", module: "broken", signature: "(string) -> void", summary: "fails"),
        ])
        let log = RecordingLog()
        ExportLoginListeners(exports: exports, log: log).userLoggedIn("ada")
        #expect(exports.calls == ["notes.on_login(ada)", "broken.on_login(ada)"])
        #expect(log.lines == ["warning: login listener broken.on_login failed: it fell over"])
    }

    @Test("a host without exports leaves the login alone")
    func noExports() {
        let exports = MockExports(list: nil)
        ExportLoginListeners(exports: exports, log: nil).userLoggedIn("ada")
        #expect(exports.calls.isEmpty)
    }
}

final class HeardLogins: LoginListening, @unchecked Sendable {
    private(set) var names: [String] = []
    func userLoggedIn(_ username: String) { names.append(username) }
}

final class MockExports: ExportCalling, @unchecked Sendable {
    let listed: [ExportSummary]?
    private(set) var calls: [String] = []

    init(list: [ExportSummary]?) {
        listed = list
    }

    func call(_ name: String, _ arguments: [ExportValue]) throws(ExportCallError) -> ExportValue {
        calls.append("\(name)(\(arguments.map(\.description).joined(separator: ",")))")
        if name.hasPrefix("broken.") { throw ExportCallError(name: name, status: 7, message: "it fell over") }
        return .void
    }

    func list() throws(ExportCallError) -> [ExportSummary] {
        guard let listed else { throw ExportCallError(name: "exports.list", status: 2, message: "unknown host service 'exports.list'") }
        return listed
    }
}
