import DenKit
import FoundationEssentials

/// The values of every live UI session, in memory: they last as long as the session. `den serve`
/// saves a copy with each browser session (`saved`, `restore`), so another host or a restarted
/// one carries the session on; the terminal keeps them in memory only.
///
/// Each module's keys are its own (`values[session][moduleID]`); the logged-in user is kept
/// apart, readable by every module and written only by the `auth` service.
///
/// A logged-in user is checked against the accounts on every read: once the account is gone
/// (`den users delete`, even from another process) or replaced by a new account of the same
/// name, the session is logged out, so a stale session never reads or writes the new owner's data.
package final class SessionStore: @unchecked Sendable {
    private struct Slot {
        var user: String?
        /// Who is on the other end, as the front-end says (`setClient`).
        var client: SessionClient?
        /// A device token issued at this session's last login, for the front-end to hand over.
        var issuedDevice: String?
        /// The account's identity when the session logged in.
        var account: String?
        /// Set by an explicit login or logout (`setUser(_:of:loginChange:)`), taken by the
        /// front-end after the step (`takeLoginChange`): the browser's cookie changes then only.
        var loginChanged = false
        var values: [String: [String: String]] = [:]
        /// Counts the front-end's requests (`beginStep`); nil for a front-end that never calls it.
        var step: UInt64?
        /// The `step` in which the login was last checked against the account: not again in it.
        var checkedIn: UInt64?
        /// Where the values come from the first time one is read or written (`loadValues`).
        var loader: (@Sendable () throws(ServiceFailure) -> [String: [String: String]])?
        /// Why the loader could not read them: every value call of the session says so.
        var loadFailure: ServiceFailure?
    }

    /// The identity of the live account `username` (`AccountBook.accountIdentity`), nil when
    /// there is none; throws when storage cannot tell, and then the session stays as it is.
    package typealias AccountIdentity = @Sendable (_ username: String) throws -> String?

    private let lock = Lock()
    private var sessions: [UISessionID: Slot] = [:]
    private var nextID: UInt64 = 1
    private let accountIdentity: AccountIdentity?

    /// Without `accountIdentity` a logged-in user is taken on trust (tests of the session alone).
    package init(accountIdentity: AccountIdentity? = nil) {
        self.accountIdentity = accountIdentity
    }

    /// A new session id, never handed out before in this process.
    package func makeSessionID() -> UISessionID {
        lock.withLock {
            defer { nextID += 1 }
            return UISessionID(nextID)
        }
    }

    /// The user as recorded, without checking the account: for a caller that only wants to know
    /// whether the user changed (no storage read on every web request).
    package func recordedUser(of session: UISessionID) -> String? {
        lock.withLock { sessions[session]?.user }
    }

    /// A request of the session begins (den serve calls it once per request): its login is
    /// checked against the account at most once from here until the next `beginStep`, however
    /// often its modules ask who is logged in. A front-end that never calls it gets a check at
    /// every read.
    package func beginStep(_ session: UISessionID) {
        lock.withLock {
            let step = (sessions[session]?.step ?? 0) &+ 1
            sessions[session, default: Slot()].step = step
        }
    }

    /// The logged-in user, after checking the account still is the one that logged in.
    package func user(of session: UISessionID) -> String? {
        guard let (user, account, checked) = lock.withLock({ sessions[session].flatMap { slot in
            slot.user.map { ($0, slot.account, slot.step != nil && slot.checkedIn == slot.step) }
        } })
        else { return nil }
        if checked { return user }
        guard let accountIdentity else { return user }
        let live: String?
        do { live = try accountIdentity(user) } catch { return user }
        if let live, live == account {
            lock.withLock {
                guard let slot = sessions[session], slot.user == user else { return }
                sessions[session]?.checkedIn = slot.step
            }
            return user
        }
        // Deleted, or deleted and registered again: log this session out.
        lock.withLock {
            if sessions[session]?.user == user, sessions[session]?.account == account {
                sessions[session]?.user = nil
                sessions[session]?.account = nil
            }
        }
        return nil
    }

    /// Records who is logged in. `loginChange` is false only when the same user stays logged in
    /// under a new account identity (a password change); a login or logout is a login change.
    func setUser(_ user: String?, of session: UISessionID, loginChange: Bool = true) {
        let account = user.flatMap { name in (try? accountIdentity?(name)) ?? nil }
        lock.withLock {
            sessions[session, default: Slot()].user = user
            sessions[session, default: Slot()].account = account
            sessions[session]?.checkedIn = nil
            if loginChange { sessions[session, default: Slot()].loginChanged = true }
        }
    }

    /// Whether a login or logout happened in the session since the last call; clears it. The web
    /// front-end takes it on the session's queue right after each step, so a step's login is
    /// never taken for another request's.
    package func takeLoginChange(of session: UISessionID) -> Bool {
        lock.withLock {
            defer { sessions[session]?.loginChanged = false }
            return sessions[session]?.loginChanged ?? false
        }
    }

    /// What the front-end knows of the session's client, for the `auth` service's throttle and
    /// audit log; set before each step (a browser's address and device cookie change).
    package func setClient(_ client: SessionClient?, of session: UISessionID) {
        lock.withLock { sessions[session, default: Slot()].client = client }
    }

    package func client(of session: UISessionID) -> SessionClient? {
        lock.withLock { sessions[session]?.client }
    }

    func setIssuedDevice(_ token: String, of session: UISessionID) {
        lock.withLock { sessions[session, default: Slot()].issuedDevice = token }
    }

    /// The device token the last step's login issued, once.
    package func takeIssuedDevice(of session: UISessionID) -> String? {
        lock.withLock {
            defer { sessions[session]?.issuedDevice = nil }
            return sessions[session]?.issuedDevice
        }
    }

    func value(_ key: String, module: String, session: UISessionID) -> String? {
        loadIfDue(session)
        return lock.withLock { sessions[session]?.values[module]?[key] }
    }

    func set(_ value: String, forKey key: String, module: String, session: UISessionID) {
        loadIfDue(session)
        lock.withLock { sessions[session, default: Slot()].values[module, default: [:]][key] = value }
    }

    func delete(_ key: String, module: String, session: UISessionID) -> Bool {
        loadIfDue(session)
        return lock.withLock { sessions[session]?.values[module]?.removeValue(forKey: key) != nil }
    }

    /// Gives `session` the values `loader` reads (a front-end that keeps them across runs: den
    /// run), loaded the first time a module reads or writes one, so a run whose modules never do
    /// never reads them. Values set before that stay over the loaded ones.
    package func loadValues(of session: UISessionID, from loader: @escaping @Sendable () throws(ServiceFailure) -> [String: [String: String]]) {
        lock.withLock { sessions[session, default: Slot()].loader = loader }
    }

    /// The session's module values, without its login (what den run keeps across runs); nil
    /// while its `loadValues` loader has not run (no module has touched a value) or failed.
    package func values(of session: UISessionID) -> [String: [String: String]]? {
        lock.withLock {
            guard let slot = sessions[session] else { return [:] }
            return slot.loader == nil && slot.loadFailure == nil ? slot.values : nil
        }
    }

    /// Throws why the session's kept values could not be loaded (`loadValues`), loading them first
    /// if due: the `session` service refuses value calls with it rather than answer as if none were kept.
    package func checkValues(of session: UISessionID) throws(ServiceFailure) {
        loadIfDue(session)
        if let failure = lock.withLock({ sessions[session]?.loadFailure }) { throw failure }
    }

    private func loadIfDue(_ session: UISessionID) {
        guard let loader = lock.withLock({ () -> (@Sendable () throws(ServiceFailure) -> [String: [String: String]])? in
            defer { sessions[session]?.loader = nil }
            return sessions[session]?.loader
        }) else { return }
        // Outside the lock: the loader reads storage.
        let loaded: [String: [String: String]]
        do { loaded = try loader() } catch {
            lock.withLock { sessions[session]?.loadFailure = error }
            return
        }
        lock.withLock {
            for (module, values) in loaded {
                sessions[session, default: Slot()].values[module, default: [:]].merge(values) { current, _ in current }
            }
        }
    }

    /// A session's login and values as a document.
    package struct Saved: Codable, Sendable, Equatable {
        package var user: String?
        package var account: String?
        package var values: [String: [String: String]]
    }

    package func saved(_ session: UISessionID) -> Saved {
        lock.withLock {
            let slot = sessions[session] ?? Slot()
            return Saved(user: slot.user, account: slot.account, values: slot.values)
        }
    }

    /// Puts a saved login and values into `session`. The login is checked against the accounts
    /// on its first read, as every login is (`user(of:)`).
    /// The client the front-end set for the request stays: a copy taken in before a step (another
    /// host's newer one) must not leave that step's login throttled and audited as "local".
    package func restore(_ saved: Saved, into session: UISessionID) {
        lock.withLock {
            let client = sessions[session]?.client
            sessions[session] = Slot(user: saved.user, client: client, account: saved.account, values: saved.values)
        }
    }

    /// Forgets everything of a session that has ended.
    package func end(_ session: UISessionID) {
        _ = lock.withLock { sessions.removeValue(forKey: session) }
    }

    /// Logs `username` out of every session but `keeping` (after a password change or reset)
    /// and returns how many were logged out.
    package func logOutOthers(_ username: String, keeping: UISessionID?) -> Int {
        lock.withLock {
            var count = 0
            for id in sessions.keys where id != keeping && sessions[id]?.user == username {
                sessions[id]?.user = nil
                sessions[id]?.account = nil
                count += 1
            }
            return count
        }
    }

    /// Logs `username` out of every session (after `den users delete` in this process).
    func logOutEverywhere(_ username: String) {
        lock.withLock {
            for id in sessions.keys where sessions[id]?.user == username {
                sessions[id]?.user = nil
                sessions[id]?.account = nil
            }
        }
    }
}

/// A UI session's client as its front-end knows it: the address (a browser's, or `local` for
/// the terminal) and the device tokens it brought (`DeviceTokens`).
package struct SessionClient: Sendable, Equatable {
    package var address: String
    package var deviceTokens: [String]

    package init(address: String, deviceTokens: [String] = []) {
        self.address = address
        self.deviceTokens = deviceTokens
    }
}
