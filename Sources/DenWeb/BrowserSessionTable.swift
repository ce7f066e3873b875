import DenHost
import Foundation
import Synchronization

/// The live browser sessions by cookie id. Memory stays bounded: a session idle past the
/// timeout is ended when next seen, when a new one is made, or by the sweep that any request
/// runs at most once a minute; at the cap the longest idle session is ended to make room. An
/// unknown or expired cookie simply gets a new session.
///
/// Each session is also saved in `store` after every step that changed it (its login, values,
/// CSRF token and screens with their modules' snapshots). A cookie this host does not hold is
/// restored from there, so a restarted den, or another host behind the same load balancer,
/// carries the session on. A session held here stays the one object for its cookie: when another
/// host has answered the browser since, its copy is taken into that object on the session's own
/// queue, before the next step (`catchUp`), never by swapping in another object while requests
/// still hold the first.
///
/// No storage read to trust a held session: each save has a revision, which the browser carries
/// back in a second cookie (`SessionCookie.revisionName`). A request whose revision is the one
/// this host saved or took last is answered from memory. Deletions are the one change that does
/// not pass through the browser (a logout on another host moves the session to a new cookie and
/// deletes the old cookie's copy), so on PostgreSQL every host hears them (`watchChanges`) and
/// reads that session again before using it; while it cannot hear them, it reads on every
/// request. A save is a compare-and-set against the revision it started from, so it never
/// overwrites another host's save or deletion.
final class BrowserSessionTable: Sendable {
    private let runtime: DenRuntime
    private let store: any BrowserSessionStore
    private let idleTimeout: Duration
    private let capacity: Int
    private let perAccount: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let sessions = Mutex<[String: BrowserSession]>([:])
    private let lastSweep: Mutex<ContinuousClock.Instant>
    /// When a held copy may be trusted without a read (`trusts`).
    private struct Trust {
        /// Bumped when deletion reports (re)start: every copy checked before is checked again.
        var epoch: UInt64 = 1
        /// False while deletions by other hosts cannot be heard.
        var hearing = false
        /// Without deletion reports (SQLite): the other processes' commits last seen
        /// (`foreignChanges`); any change starts a new epoch.
        var foreign: UInt64?
        var reportsDeletions = false
    }
    private let trust = Mutex(Trust())
    /// A session left unchanged by its steps is saved again after this long anyway: its saved
    /// copy's time is how every host tells it has expired.
    static let resaveInterval: Double = 60

    init(runtime: DenRuntime, configuration: WebConfiguration) {
        self.runtime = runtime
        store = StorageBrowserSessionStore(engine: runtime.storage, logger: runtime.logger)
        idleTimeout = configuration.sessionIdleTimeout
        capacity = max(1, configuration.maxSessions)
        perAccount = max(1, configuration.maxSessionsPerAccount)
        now = configuration.now
        lastSweep = Mutex(configuration.now())
        let reported = store.watchChanges { [weak self] event in self?.heard(event) }
        // No reports (SQLite): another process's commit (another den serve on the same folder,
        // `den users` on the command line) is told by `foreignChanges` instead.
        trust.withLock { $0.reportsDeletions = reported; if !reported { $0.hearing = true } }
    }

    /// A deletion report of the store (PostgreSQL's `den_changes` channel).
    private func heard(_ event: StorageChange) {
        switch event {
        case .watching:
            trust.withLock { $0.epoch += 1; $0.hearing = true }
        case .stopped:
            trust.withLock { $0.hearing = false }
        case .changed(let key):
            let held = sessions.withLock { table in table.values.first { $0.knownStoreKey == key } }
            held?.invalidate()
        }
    }

    /// Whether `session`'s copy is the saved one without a read: the browser saw the revision this
    /// host saved or took last, and no deletion of it can have gone unheard.
    private func trusts(_ session: BrowserSession, seen: String?) -> Bool {
        guard let seen, let mine = session.revision, seen == mine else { return false }
        if !trust.withLock({ $0.reportsDeletions }) {
            // One cheap read that touches no entry; a failure trusts nothing.
            let foreign: UInt64?
            do { foreign = try store.foreignChanges() } catch { return false }
            if let foreign {
                trust.withLock { trust in
                    if trust.foreign != foreign { trust.foreign = foreign; trust.epoch += 1 }
                }
            }
        }
        let (epoch, hearing) = trust.withLock { ($0.epoch, $0.hearing) }
        return hearing && session.isChecked(epoch: epoch)
    }

    /// Before a storage call that checks `session`'s saved copy: its storage key is made first,
    /// so a deletion of the copy reported from now on finds the session (`heard`).
    private func beginCheck(_ session: BrowserSession) -> UInt64 {
        _ = session.storeKey(store.key)
        return session.beginCheck()
    }

    /// The epoch to mark a check with, read before the check's storage call. Without deletion
    /// reports, the first check also notes the other processes' commits so far, so that a copy
    /// checked now is trusted until they change.
    private var epoch: UInt64 {
        let (epoch, noted) = trust.withLock { ($0.epoch, $0.reportsDeletions || $0.foreign != nil) }
        guard !noted, let foreign = try? store.foreignChanges() else { return epoch }
        return trust.withLock { trust in
            if trust.foreign == nil { trust.foreign = foreign }
            return trust.epoch
        }
    }

    /// Makes `session` this saved copy (restored, caught up or superseded by another host's save).
    private func take(_ copy: SavedBrowserSession, into session: BrowserSession, epoch: UInt64, token: UInt64, replacing: Bool) {
        takeLogin(copy, into: session)
        takeScreens(copy, into: session, epoch: epoch, token: token, replacing: replacing)
    }

    /// The copy's login, values and messages: no module call, so at once on any thread.
    private func takeLogin(_ copy: SavedBrowserSession, into session: BrowserSession) {
        runtime.sessions.restore(copy.values, into: session.navigation.id)
        _ = session.noteUser(copy.values.user)
        session.keepFlash(BrowserSession.Flash(notices: copy.notices, errors: copy.errors, openURLs: copy.openURLs))
        session.revision = copy.revision
    }

    /// The copy's screens, on the session's queue (building them calls modules).
    private func takeScreens(_ copy: SavedBrowserSession, into session: BrowserSession, epoch: UInt64, token: UInt64, replacing: Bool) {
        session.navigation.restore(copy.navigation, replacing: replacing)
        session.lastSaved = copy
        session.markChecked(epoch: epoch, token: token)
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
        let epoch = epoch
        guard let saved = store.load(cookie) else { return nil }
        guard Date().timeIntervalSince1970 - saved.savedAt < Double(idleTimeout.components.seconds) else {
            store.delete(cookie, ifRevision: saved.revision)
            return nil
        }
        let session = makeSession(at: time, id: cookie, csrfToken: saved.csrfToken)
        let token = beginCheck(session)
        // The login and values now, the screens on its queue (building them calls modules),
        // ahead of any request it is about to answer.
        takeLogin(saved, into: session)
        session.afterQueued { [weak self] in self?.takeScreens(saved, into: session, epoch: epoch, token: token, replacing: false) }
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

    /// A session whose steps run through this table's catch-up and save.
    private func makeSession(at time: ContinuousClock.Instant, id: String? = nil, csrfToken: String? = nil) -> BrowserSession {
        // The session's module calls run on its queue, under the watchdog (no thread per call).
        let handOff = CallHandOff()
        return BrowserSession(navigation: runtime.makeSession(handOff: handOff), handOff: handOff, now: time,
                              id: id, csrfToken: csrfToken, beforeStep: { [weak self] in self?.catchUp($0, seen: $1) },
                              holdsNewest: { [weak self] in self?.holdsNewest($0, seen: $1) ?? true },
                              afterStep: { [weak self] in self?.finishStep($0) })
    }

    /// On the session's queue, before its step: when another host answered this browser since
    /// this host last saved or read the session, its copy (screens, values, login) is taken into
    /// this same session. Run in turn with `finishStep`'s save, so this host's own save is never
    /// taken for another's. No read when the browser's revision shows nobody else answered it.
    private func catchUp(_ session: BrowserSession, seen: String?) {
        guard let mine = session.revision, !trusts(session, seen: seen) else { return }
        let epoch = epoch, token = beginCheck(session)
        let saved: String?
        do { saved = try store.revision(session.id) } catch { return } // the database is away: go on from memory
        // Its saved copy is gone: another host logged this cookie out (moving the session to a
        // new cookie) or ended it. So it ends here too, at once.
        guard let saved else { return endInPlace(session) }
        guard saved != mine else { return session.markChecked(epoch: epoch, token: token) }
        guard let copy = store.load(session.id) else { return }
        take(copy, into: session, epoch: epoch, token: token, replacing: true)
    }

    /// Whether the saved copy is the one this session last saved or took (true when storage
    /// cannot tell: the database away is no reason to stop answering).
    private func holdsNewest(_ session: BrowserSession, seen: String?) -> Bool {
        guard let mine = session.revision, !trusts(session, seen: seen) else { return true }
        let epoch = epoch, token = beginCheck(session)
        do {
            guard try store.revision(session.id) == mine else { return false }
            session.markChecked(epoch: epoch, token: token)
            return true
        } catch {
            return true
        }
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
        session.lastSaved = nil
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

    /// Saves `session` (on its queue, after a step) unless the step changed nothing: its screens'
    /// snapshots are module calls. `movingFrom`: the cookie it had before a login or logout,
    /// whose saved copy goes in the same write. Otherwise a compare-and-set against the revision
    /// the step started from: when another host saved or deleted the copy meanwhile, its save
    /// stands (the first save wins) and this session takes it, or ends with it.
    private func persist(_ session: BrowserSession, movingFrom old: String? = nil) {
        let flash = session.flash, now = Date().timeIntervalSince1970
        let saved = SavedBrowserSession(csrfToken: session.csrfToken, values: runtime.sessions.saved(session.navigation.id),
                                        navigation: session.navigation.saved(), notices: flash.notices, errors: flash.errors,
                                        openURLs: flash.openURLs, savedAt: now, revision: SessionToken.make())
        let mine = session.revision
        if old == nil, mine != nil, let last = session.lastSaved, last.sameContent(as: saved), now - last.savedAt < Self.resaveInterval {
            return
        }
        let epoch = epoch, token = beginCheck(session)
        let outcome: BrowserSessionSave
        if let old {
            outcome = store.move(saved, from: old, to: session.id) ? .saved : .failed
        } else if let mine {
            outcome = store.save(saved, cookie: session.id, replacing: mine)
        } else {
            outcome = store.save(saved, cookie: session.id) ? .saved : .failed // its first save: nobody else has its cookie
        }
        switch outcome {
        case .saved:
            runtime.events.hostEvent(.sessionSaved)
            session.revision = saved.revision
            session.lastSaved = saved
            session.markChecked(epoch: epoch, token: token)
        case .superseded:
            if let copy = store.load(session.id) {
                take(copy, into: session, epoch: epoch, token: token, replacing: true)
            } else if (try? store.revision(session.id)) == .some(nil) {
                endInPlace(session) // deleted: a logout on another host
            }
        case .failed:
            // The saved copy is as it was: this session keeps the old revision, or the next
            // request would take the older saved one for newer and drop what was typed since.
            break
        }
    }

    /// The cookie's session, or a new one (`isNew`: the response must set the cookie).
    func session(for cookie: String?) -> (session: BrowserSession, isNew: Bool) {
        sweepIfDue()
        if let session = existing(cookie) { return (session, false) }
        let time = now()
        let session = makeSession(at: time)
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
        if let revision = session.revision { store.delete(session.id, ifRevision: revision) }
        forget(session)
    }

    /// Drops a session from this host only (its saved copy stays for whoever answers next).
    private func forget(_ session: BrowserSession) {
        let store = runtime.sessions, id = session.navigation.id
        session.afterQueued { store.end(id) }
    }
}
