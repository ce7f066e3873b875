@testable import DenHost
import DenKit
import DenTestSupport
import Foundation
import Testing

@Suite("A logged-in session follows its account: deleted or replaced, it is logged out")
struct SessionAccountCheckSpec {
    let temp: TemporaryDirectory
    let configuration: HostConfiguration

    init() throws {
        temp = try TemporaryDirectory("den-session-account")
        var configuration = HostConfiguration(cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data"))
        configuration.auth = AuthTestSupport.settings()
        self.configuration = configuration
    }

    func loggedIn(_ runtime: DenRuntime, as name: String) throws -> UISessionID {
        let session = runtime.sessions.makeSessionID()
        #expect(try runtime.accounts.logIn(username: name, password: "correct horse").outcome == .ok)
        runtime.sessions.setUser(name, of: session)
        return session
    }

    @Test("the user stays while the account lives")
    func stays() throws {
        let runtime = DenRuntime(configuration: configuration)
        _ = try runtime.accounts.register(username: "alice", password: "correct horse")
        let session = try loggedIn(runtime, as: "alice")
        #expect(runtime.sessions.user(of: session) == "alice")
        #expect(runtime.sessions.user(of: session) == "alice")
    }

    @Test("den users delete in another process logs the session out")
    func deletedElsewhere() throws {
        let running = DenRuntime(configuration: configuration)
        _ = try running.accounts.register(username: "alice", password: "correct horse")
        let session = try loggedIn(running, as: "alice")

        _ = try DenRuntime(configuration: configuration).accounts.delete("alice")

        #expect(running.sessions.user(of: session) == nil)
    }

    @Test("a new account of the same name is not the old session's: it is logged out")
    func replacedElsewhere() throws {
        let running = DenRuntime(configuration: configuration)
        _ = try running.accounts.register(username: "alice", password: "correct horse")
        let session = try loggedIn(running, as: "alice")

        let admin = DenRuntime(configuration: configuration)
        _ = try admin.accounts.delete("alice")
        // The test clock stands still: both accounts have the same creation time.
        #expect(try admin.accounts.register(username: "alice", password: "another one!").outcome == .ok)

        #expect(running.sessions.user(of: session) == nil)
        // The new alice logs in afresh and is hers.
        let fresh = running.sessions.makeSessionID()
        running.sessions.setUser("alice", of: fresh)
        #expect(running.sessions.user(of: fresh) == "alice")
    }
}

/// How often a session's login is checked against its account: once per request of a front-end
/// that marks its requests (den serve), at every read of one that does not (the terminal).
@Suite("A login is checked at most once per request")
struct SessionAccountCheckCountSpec {
    final class Reads: @unchecked Sendable {
        let lock = Lock()
        var count = 0
        var identity: String? = "account-1"
    }

    /// A store whose account reads are counted, with alice logged in to a session; the reads the
    /// login itself made are counted already.
    static func loggedIn() -> (reads: Reads, store: SessionStore, session: UISessionID, afterLogin: Int) {
        let reads = Reads()
        let store = SessionStore(accountIdentity: { _ in reads.lock.withLock { reads.count += 1; return reads.identity } })
        let session = store.makeSessionID()
        store.setUser("alice", of: session)
        return (reads, store, session, reads.lock.withLock { reads.count })
    }

    @Test("a request's many reads of the user check the account once; the next request checks again")
    func oncePerRequest() {
        let (reads, store, session, afterLogin) = Self.loggedIn()
        store.beginStep(session)
        for _ in 0..<6 { #expect(store.user(of: session) == "alice") }
        #expect(reads.lock.withLock { reads.count } == afterLogin + 1)
        store.beginStep(session)
        #expect(store.user(of: session) == "alice")
        #expect(reads.lock.withLock { reads.count } == afterLogin + 2)
        // The account changed elsewhere (a password change): the next request logs it out.
        reads.lock.withLock { reads.identity = "account-1/1" }
        #expect(store.user(of: session) == "alice", "within the request already checked")
        store.beginStep(session)
        #expect(store.user(of: session) == nil)
    }

    @Test("without requests marked (the terminal), every read checks the account")
    func everyReadUnmarked() {
        let (reads, store, session, afterLogin) = Self.loggedIn()
        for _ in 0..<3 { _ = store.user(of: session) }
        #expect(reads.lock.withLock { reads.count } == afterLogin + 3)
    }
}

@Suite("A saved session taken in keeps the request's client")
struct SessionRestoreClientSpec {
    @Test("restoring another host's copy before a step leaves the address the login throttle and audit use")
    func clientKept() {
        let store = SessionStore()
        let session = store.makeSessionID()
        store.setClient(SessionClient(address: "203.0.113.7", deviceTokens: ["d1"]), of: session)
        store.restore(SessionStore.Saved(user: "alice", account: "a", values: ["main": ["k": "v"]]), into: session)
        #expect(store.client(of: session) == SessionClient(address: "203.0.113.7", deviceTokens: ["d1"]))
        #expect(store.recordedUser(of: session) == "alice")
        #expect(store.value("k", module: "main", session: session) == "v")
    }
}
