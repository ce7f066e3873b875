import CDenABI
@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

@Suite("Session service: values and the logged-in user of one UI session")
struct SessionServiceSpec {
    let sessions = SessionStore()
    let hub: ServiceHub

    init() {
        hub = ServiceHub(services: [SessionService(store: sessions),
                                    AuthService(accounts: AuthTestSupport.book(), sessions: sessions)])
    }

    func call(_ operation: String, _ json: String, module: String = "login", session: UISessionID?) -> (den_status, String) {
        let (status, body) = hub.call(operation, request: Data(json.utf8), caller: ServiceCaller(moduleID: module, session: session))
        return (status, String(decoding: body, as: UTF8.self))
    }

    @Test("two UI sessions never see each other's values or user")
    func isolation() throws {
        let one = sessions.makeSessionID(), two = sessions.makeSessionID()
        #expect(call("auth.register", #"{"username":"alice","password":"correct horse"}"#, session: nil).0 == DEN_OK)
        #expect(call("auth.login", #"{"username":"alice","password":"correct horse"}"#, session: one).1.contains(#""outcome":"ok""#))
        #expect(call("session.get", #"{"key":"user"}"#, module: "jogs", session: one).1 == #"{"value":"alice"}"#)
        #expect(call("session.get", #"{"key":"user"}"#, module: "jogs", session: two).1 == #"{"value":null}"#)
        #expect(call("session.set", #"{"key":"draft","value":"5 km"}"#, session: one).0 == DEN_OK)
        #expect(call("session.get", #"{"key":"draft"}"#, session: one).1 == #"{"value":"5 km"}"#)
        #expect(call("session.get", #"{"key":"draft"}"#, session: two).1 == #"{"value":null}"#)
        // Another module's values are its own, even in the same session.
        #expect(call("session.get", #"{"key":"draft"}"#, module: "jogs", session: one).1 == #"{"value":null}"#)
        #expect(call("session.delete", #"{"key":"draft"}"#, session: one).1 == #"{"deleted":true}"#)
    }

    @Test("logout clears the user of the calling session only")
    func logout() {
        let one = sessions.makeSessionID(), two = sessions.makeSessionID()
        _ = call("auth.register", #"{"username":"alice","password":"correct horse"}"#, session: nil)
        _ = call("auth.login", #"{"username":"alice","password":"correct horse"}"#, session: one)
        _ = call("auth.login", #"{"username":"alice","password":"correct horse"}"#, session: two)
        #expect(call("auth.logout", "{}", session: one).1 == #"{"outcome":"ok","username":"alice"}"#)
        #expect(sessions.user(of: one) == nil)
        #expect(sessions.user(of: two) == "alice")
    }

    @Test("a wrong password leaves the session logged out")
    func wrongPassword() {
        let one = sessions.makeSessionID()
        _ = call("auth.register", #"{"username":"alice","password":"correct horse"}"#, session: nil)
        #expect(call("auth.login", #"{"username":"alice","password":"wrong password"}"#, session: one).1.contains("Wrong username or password"))
        #expect(sessions.user(of: one) == nil)
    }

    @Test("change_password needs a logged-in session and the current password")
    func changePassword() {
        let one = sessions.makeSessionID()
        _ = call("auth.register", #"{"username":"alice","password":"correct horse"}"#, session: nil)
        #expect(call("auth.change_password", #"{"current_password":"correct horse","new_password":"battery staple"}"#, session: one).1.contains("Log in first"))
        _ = call("auth.login", #"{"username":"alice","password":"correct horse"}"#, session: one)
        #expect(call("auth.change_password", #"{"current_password":"wrong one!","new_password":"battery staple"}"#, session: one).1.contains("current password is wrong"))
        #expect(call("auth.change_password", #"{"current_password":"correct horse","new_password":"battery staple"}"#, session: one).1.contains(#""outcome":"ok""#))
        #expect(call("auth.login", #"{"username":"alice","password":"battery staple"}"#, session: one).1.contains(#""outcome":"ok""#))
    }

    @Test("the user is read-only through session.*")
    func userReadOnly() {
        let one = sessions.makeSessionID()
        let (status, message) = call("session.set", #"{"key":"user","value":"mallory"}"#, session: one)
        #expect(status == DEN_ERR_INVALID_ARGUMENT)
        #expect(message.contains("auth.login"))
        #expect(call("session.delete", #"{"key":"user"}"#, session: one).0 == DEN_ERR_INVALID_ARGUMENT)
    }

    @Test("a call made outside a builder or handle has no session and is told so", arguments: ["session.get", "auth.login", "auth.logout"])
    func noSession(operation: String) {
        let json = operation == "auth.login" ? #"{"username":"alice","password":"correct horse"}"# : operation == "auth.logout" ? "{}" : #"{"key":"k"}"#
        let (status, message) = call(operation, json, session: nil)
        #expect(status == DEN_ERR_INVALID_ARGUMENT)
        #expect(message.contains("not made from a builder or handle call"))
    }

    @Test("the call runner binds its session on the worker thread, and only there")
    func runnerBindsSession() {
        let id = UISessionID(42)
        let runner = ModuleCallRunner(session: id)
        let seen = runner.run(ModuleCall(moduleID: "m", what: "handle")) { CallContext.session }
        #expect(seen == .success(id))
        #expect(CallContext.session == nil)
    }

    @Test("every NavigationSession of a runtime has its own id")
    func distinctSessions() throws {
        let runtime = DenRuntime(configuration: HostConfiguration(cacheDirectory: FileManager.default.temporaryDirectory,
                                                                  dataDirectory: FileManager.default.temporaryDirectory))
        #expect(runtime.makeSession().id != runtime.makeSession().id)
    }
}
