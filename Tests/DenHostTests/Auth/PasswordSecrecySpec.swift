import DenAccounts
@testable import DenHost
@testable import DenSQLiteEngine
@testable import DenKit
import DenTestSupport
import Foundation
import Testing

@Suite("A plain password never reaches the database file or the log")
struct PasswordSecrecySpec {
    @Test("after register, failed and good logins, a change and a reset, neither storage.sqlite nor the log holds a password")
    func nothingStored() throws {
        let folder = try ServiceTestSupport.temporaryDirectory("den-auth")
        defer { ServiceTestSupport.remove(folder) }
        let log = CapturedLog()
        let engine = SQLiteStorageEngine(directory: folder)
        let sessions = SessionStore()
        let book = AccountBook(engine: engine, settings: AuthTestSupport.settings())
        let hub = ServiceHub(services: [AuthService(accounts: book, sessions: sessions, logger: log.logger),
                                        SessionService(store: sessions)])
        // The module side, through the real C endpoint, as a plugin calls it.
        let host = ServiceTestSupport.hostServices(for: "login", hub: hub)
        let auth = HostAuthClient(host)
        let session = HostSessionValues(host)
        let id = sessions.makeSessionID()
        let passwords = ["Secret-Pass-One", "Wrong-Guess-Two", "Secret-Pass-Three", "Secret-Pass-Four"]

        try CallContext.$session.withValue(id) {
            #expect(try auth.register(username: "alice", password: passwords[0]).outcome == .ok)
            #expect(try auth.logIn(username: "alice", password: passwords[1]).outcome == .refused)
            #expect(try auth.logIn(username: "nobody", password: passwords[1]).outcome == .refused)
            #expect(try auth.logIn(username: "alice", password: passwords[0]).outcome == .ok)
            #expect(try session.loggedInUser() == "alice")
            #expect(try auth.changePassword(current: passwords[0], new: passwords[2]).outcome == .ok)
            let (token, _) = try book.makeResetToken(for: "alice")
            #expect(try auth.resetPassword(token: token, new: passwords[3]).outcome == .ok)
            #expect(try auth.logOut().outcome == .ok)
            #expect(try session.loggedInUser() == nil)
            // A refused request's message does not quote the password either.
            let error = #expect(throws: HostServiceError.self) { try auth.register(username: "bob", password: "short7!") }
            #expect(error?.message.contains("short7!") == false)
        }
        engine.close()
        var bytes = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            bytes += try Data(contentsOf: folder.appendingPathComponent(name))
        }
        #expect(bytes.count > 0)
        let logged = log.lines.map(\.message).joined(separator: "\n")
        #expect(logged.contains("auth.login alice: refused"))
        for password in passwords + ["short7!"] {
            #expect(bytes.range(of: Data(password.utf8)) == nil, "the database holds a password")
            #expect(!logged.contains(password), "the log holds a password")
        }
    }
}
