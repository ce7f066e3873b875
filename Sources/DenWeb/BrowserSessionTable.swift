import DenHost
import Synchronization

/// The live browser sessions by cookie id. Memory stays bounded: a session idle past the
/// timeout is ended when next seen, when a new one is made, or by the sweep that any request
/// runs at most once a minute; at the cap the longest idle session is ended to make room. An
/// unknown or expired cookie simply gets a new session.
final class BrowserSessionTable: Sendable {
    private let runtime: DenRuntime
    private let idleTimeout: Duration
    private let capacity: Int
    private let perAccount: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let sessions = Mutex<[String: BrowserSession]>([:])
    private let lastSweep: Mutex<ContinuousClock.Instant>

    init(runtime: DenRuntime, configuration: WebConfiguration) {
        self.runtime = runtime
        idleTimeout = configuration.sessionIdleTimeout
        capacity = max(1, configuration.maxSessions)
        perAccount = max(1, configuration.maxSessionsPerAccount)
        now = configuration.now
        lastSweep = Mutex(configuration.now())
    }

    var count: Int { sessions.withLock { $0.count } }

    /// The session a cookie names, if it is live.
    func existing(_ cookie: String?) -> BrowserSession? {
        guard let cookie, SessionToken.isWellFormed(cookie) else { return nil }
        let time = now()
        let (found, expired) = sessions.withLock { table -> (BrowserSession?, BrowserSession?) in
            guard let session = table[cookie] else { return (nil, nil) }
            if session.lastUsed + idleTimeout <= time {
                table[cookie] = nil
                return (nil, session)
            }
            session.touch(time)
            return (session, nil)
        }
        if let expired { end(expired) }
        return found
    }

    /// The cookie's session, or a new one (`isNew`: the response must set the cookie).
    func session(for cookie: String?) -> (session: BrowserSession, isNew: Bool) {
        sweepIfDue()
        if let session = existing(cookie) { return (session, false) }
        let time = now()
        // The session's module calls run on its queue, under the watchdog (no thread per call).
        let handOff = CallHandOff()
        let session = BrowserSession(navigation: runtime.makeSession(placement: .watched(handOff)), handOff: handOff, now: time)
        let ended = sessions.withLock { table -> [BrowserSession] in
            var ended = table.values.filter { $0.lastUsed + idleTimeout <= time }
            for old in ended { table[old.id] = nil }
            // At the cap, the longest idle session without a login goes first: a flood of new
            // visitors can then never log out everybody who is logged in.
            while table.count >= capacity,
                  let oldest = table.values.filter({ $0.user == nil }).min(by: { $0.lastUsed < $1.lastUsed })
                    ?? table.values.min(by: { $0.lastUsed < $1.lastUsed }) {
                table[oldest.id] = nil
                ended.append(oldest)
            }
            table[session.id] = session
            return ended
        }
        for old in ended { end(old) }
        return (session, true)
    }

    /// After `session` logged in as `user`: ends that account's own longest unused sessions past
    /// the per-account cap, so one account logging in again and again never pushes anybody
    /// else out (`session` itself stays). Returns how many ended.
    @discardableResult
    func capAccount(of session: BrowserSession, user: String) -> Int {
        let store = runtime.sessions
        let ended = sessions.withLock { table -> [BrowserSession] in
            let others = table.values.filter { $0 !== session && store.recordedUser(of: $0.navigation.id) == user }
            let excess = others.count + 1 - perAccount
            guard excess > 0 else { return [] }
            let oldest = others.sorted { $0.lastUsed < $1.lastUsed }.prefix(excess)
            for old in oldest { table[old.id] = nil }
            return Array(oldest)
        }
        for old in ended { end(old) }
        return ended.count
    }

    /// Ends `session` and returns a new one in its place (the response must set the cookie).
    func restart(_ session: BrowserSession) -> BrowserSession {
        let removed = sessions.withLock { table in table.removeValue(forKey: session.id) != nil }
        if removed { end(session) }
        return self.session(for: nil).session
    }

    /// Gives `session` a new cookie id (the old one stops working at once) and returns it.
    func rekey(_ session: BrowserSession) -> String {
        let fresh = SessionToken.make()
        sessions.withLock { table in
            table[session.id] = nil
            session.setID(fresh)
            table[fresh] = session
        }
        return fresh
    }

    /// Ends every expired session, at most once a minute: logins of browsers that went away do
    /// not outlive the timeout by more than that, even while no new session is made.
    private func sweepIfDue() {
        let time = now()
        let due = lastSweep.withLock { last in
            guard time - last >= .seconds(60) else { return false }
            last = time
            return true
        }
        guard due else { return }
        let ended = sessions.withLock { table -> [BrowserSession] in
            let expired = table.values.filter { $0.lastUsed + idleTimeout <= time }
            for old in expired { table[old.id] = nil }
            return expired
        }
        for old in ended { end(old) }
    }

    /// Forgets the session's values and login once its queued requests are done.
    private func end(_ session: BrowserSession) {
        let store = runtime.sessions, id = session.navigation.id
        session.afterQueued { store.end(id) }
    }
}
