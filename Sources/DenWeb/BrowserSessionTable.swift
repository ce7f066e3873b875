import DenHost
import Foundation
import Synchronization

/// The live browser sessions by cookie id. Memory stays bounded: a session idle past the
/// timeout is ended when next seen, when a new one is made, or by the sweep that any request
/// runs at most once a minute; at the cap the longest idle session is ended to make room. An
/// unknown or expired cookie simply gets a new session.
///
/// Each session is also saved in `store` after every request (its login, values, CSRF token and
/// screens with their modules' snapshots). A cookie this host does not hold is restored from
/// there, so a restarted den, or another host behind the same load balancer, carries the session
/// on. A session held here stays the one object for its cookie: when another host has answered
/// the browser since, its copy is taken into that object on the session's own queue, before the
/// next step (`catchUp`), never by swapping in another object while requests still hold the first.
final class BrowserSessionTable: Sendable {
    private let runtime: DenRuntime
    private let store: any BrowserSessionStore
    private let idleTimeout: Duration
    private let capacity: Int
    private let perAccount: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let sessions = Mutex<[String: BrowserSession]>([:])
    private let lastSweep: Mutex<ContinuousClock.Instant>

    init(runtime: DenRuntime, configuration: WebConfiguration) {
        self.runtime = runtime
        store = StorageBrowserSessionStore(engine: runtime.storage, logger: runtime.logger)
        idleTimeout = configuration.sessionIdleTimeout
        capacity = max(1, configuration.maxSessions)
        perAccount = max(1, configuration.maxSessionsPerAccount)
        now = configuration.now
        lastSweep = Mutex(configuration.now())
    }

    var count: Int { sessions.withLock { $0.count } }

    /// The session a cookie names, if it is live here or saved (`restore`).
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
        if let found { return found }
        return restore(cookie, at: time)
    }

    /// A session saved by this host before a restart, or by another host, rebuilt here: the
    /// login and values first, then its screens on its own queue (building them calls modules),
    /// ahead of any request it is about to answer.
    private func restore(_ cookie: String, at time: ContinuousClock.Instant) -> BrowserSession? {
        guard let saved = store.load(cookie) else { return nil }
        guard Date().timeIntervalSince1970 - saved.savedAt < Double(idleTimeout.components.seconds) else {
            store.delete(cookie)
            return nil
        }
        let handOff = CallHandOff()
        let session = BrowserSession(navigation: runtime.makeSession(handOff: handOff), handOff: handOff, now: time,
                                     id: cookie, csrfToken: saved.csrfToken, beforeStep: { [weak self] in self?.catchUp($0) },
                                     holdsNewest: { [weak self] in self?.holdsNewest($0) ?? true },
                                     afterStep: { [weak self] in self?.finishStep($0) })
        runtime.sessions.restore(saved.values, into: session.navigation.id)
        _ = session.noteUser(saved.values.user)
        session.keepFlash(BrowserSession.Flash(notices: saved.notices, errors: saved.errors, openURLs: saved.openURLs))
        session.revision = saved.revision
        let navigation = session.navigation
        session.afterQueued { navigation.restore(saved.navigation) }
        let (kept, ended) = sessions.withLock { table -> (BrowserSession, [BrowserSession]) in
            // Two requests of one browser restoring at once: the first one in wins.
            if let other = table[cookie] { return (other, []) }
            let ended = makeRoom(&table, at: time)
            table[cookie] = session
            return (session, ended)
        }
        for old in ended { end(old) }
        if kept !== session { forget(session) }
        return kept
    }

    /// On the session's queue, before its step: when another host answered this browser since
    /// this host last saved or read the session, its copy (screens, values, login) is taken into
    /// this same session. Run in turn with `finishStep`'s save, so this host's own save is never
    /// taken for another's.
    private func catchUp(_ session: BrowserSession) {
        guard let mine = session.revision else { return }
        let saved: String?
        do { saved = try store.revision(session.id) } catch { return } // the database is away: go on from memory
        // Its saved copy is gone: another host logged this cookie out (moving the session to a
        // new cookie) or ended it. So it ends here too, at once.
        guard let saved else { return endInPlace(session) }
        guard saved != mine, let copy = store.load(session.id) else { return }
        runtime.sessions.restore(copy.values, into: session.navigation.id)
        _ = session.noteUser(copy.values.user)
        session.keepFlash(BrowserSession.Flash(notices: copy.notices, errors: copy.errors, openURLs: copy.openURLs))
        session.navigation.restore(copy.navigation, replacing: true)
        session.revision = copy.revision
    }

    /// Whether the saved copy is the one this session last saved or took (true when storage
    /// cannot tell: the database away is no reason to stop answering).
    private func holdsNewest(_ session: BrowserSession) -> Bool {
        guard let mine = session.revision else { return true }
        do { return try store.revision(session.id) == mine } catch { return true }
    }

    /// Ends `session` where it stands (requests of it may be running): logged out, no screens,
    /// no values, under a new cookie that the response sets. The step then runs as in a new session.
    private func endInPlace(_ session: BrowserSession) {
        let id = session.navigation.id
        let client = runtime.sessions.client(of: id)
        runtime.sessions.end(id)
        runtime.sessions.setClient(client, of: id)
        _ = session.noteUser(nil)
        session.keepFlash(BrowserSession.Flash())
        session.navigation.restore(SavedNavigation(), replacing: true)
        _ = rekey(session)
        session.revision = nil
    }

    /// On the session's queue, after its step: a login or logout in that step (and only then)
    /// gives the session a new cookie, so a cookie seen before either is worthless after it;
    /// then the session is saved.
    private func finishStep(_ session: BrowserSession) {
        let id = session.navigation.id
        let loginChanged = runtime.sessions.takeLoginChange(of: id)
        let user = runtime.sessions.recordedUser(of: id)
        _ = session.noteUser(user)
        guard loginChanged else { return persist(session) }
        let old = rekey(session)
        persist(session, movingFrom: old)
        if let user { capAccount(of: session, user: user) }
    }

    /// Saves `session` (on its queue, after a step): its screens' snapshots are module calls.
    /// `movingFrom`: the cookie it had before a login or logout, whose saved copy goes in the
    /// same write.
    private func persist(_ session: BrowserSession, movingFrom old: String? = nil) {
        // Read again just before the write: a copy another host deleted during this step (a
        // logout there) is not written back, and ends here at the next step (`catchUp`); a copy
        // another host saved meanwhile wins, as if its save had come last. This narrows the race
        // to the read and the write, it does not close it (docs/DEPLOY.md).
        if old == nil, let mine = session.revision {
            do {
                guard try store.revision(session.id) == mine else { return }
            } catch {
                // Storage cannot tell: save as usual (a failed save is logged there).
            }
        }
        let flash = session.flash
        let saved = SavedBrowserSession(csrfToken: session.csrfToken, values: runtime.sessions.saved(session.navigation.id),
                                        navigation: session.navigation.saved(), notices: flash.notices, errors: flash.errors,
                                        openURLs: flash.openURLs, savedAt: Date().timeIntervalSince1970, revision: SessionToken.make())
        // A failed save (a full disk, a database away) leaves the saved copy as it was: this copy
        // keeps the old revision, or the next request would take the older saved one for newer
        // and drop what was typed since.
        let done = old.map { store.move(saved, from: $0, to: session.id) } ?? store.save(saved, cookie: session.id)
        if done { session.revision = saved.revision }
    }

    /// The cookie's session, or a new one (`isNew`: the response must set the cookie).
    func session(for cookie: String?) -> (session: BrowserSession, isNew: Bool) {
        sweepIfDue()
        if let session = existing(cookie) { return (session, false) }
        let time = now()
        // The session's module calls run on its queue, under the watchdog (no thread per call).
        let handOff = CallHandOff()
        let session = BrowserSession(navigation: runtime.makeSession(handOff: handOff), handOff: handOff, now: time,
                                     beforeStep: { [weak self] in self?.catchUp($0) },
                                     holdsNewest: { [weak self] in self?.holdsNewest($0) ?? true },
                                     afterStep: { [weak self] in self?.finishStep($0) })
        let ended = sessions.withLock { table -> [BrowserSession] in
            let ended = makeRoom(&table, at: time)
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

    /// Takes the expired sessions out, and at the cap the longest idle one; returns them.
    private func makeRoom(_ table: inout [String: BrowserSession], at time: ContinuousClock.Instant) -> [BrowserSession] {
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
        return ended
    }

    /// Gives `session` a new cookie id here (the old one stops working at once) and returns the
    /// old one; `persist` moves its saved copy.
    private func rekey(_ session: BrowserSession) -> String {
        let fresh = SessionToken.make()
        return sessions.withLock { table in
            let old = session.id
            if table[old] === session { table[old] = nil }
            session.setID(fresh)
            table[fresh] = session
            return old
        }
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
        // Sessions saved by any host and unused since: their browsers went away.
        store.deleteSaved(before: Date().timeIntervalSince1970 - Double(idleTimeout.components.seconds))
    }

    /// Ends a session: forgets its values and login here once its queued requests are done, and
    /// its saved copy unless another host has used it since (it then lives on there).
    private func end(_ session: BrowserSession) {
        let cookie = session.id, revision = session.revision
        if (try? store.revision(cookie)) == revision { store.delete(cookie) }
        forget(session)
    }

    /// Drops a session from this host only (its saved copy stays for whoever answers next).
    private func forget(_ session: BrowserSession) {
        let store = runtime.sessions, id = session.navigation.id
        session.afterQueued { store.end(id) }
    }
}
