import Foundation

/// The values of every live UI session, in memory: they last as long as the session, never
/// reach the disk, and a restart forgets them (so a restart logs everybody out).
///
/// Each module's keys are its own (`values[session][moduleID]`); the logged-in user is kept
/// apart, readable by every module and written only by the `auth` service.
public final class SessionStore: @unchecked Sendable {
    private struct Slot {
        var user: String?
        var values: [String: [String: String]] = [:]
    }

    private let lock = NSLock()
    private var sessions: [UISessionID: Slot] = [:]
    private var nextID: UInt64 = 1

    public init() {}

    /// A new session id, never handed out before in this process.
    public func makeSessionID() -> UISessionID {
        lock.withLock {
            defer { nextID += 1 }
            return UISessionID(nextID)
        }
    }

    public func user(of session: UISessionID) -> String? {
        lock.withLock { sessions[session]?.user }
    }

    func setUser(_ user: String?, of session: UISessionID) {
        lock.withLock { sessions[session, default: Slot()].user = user }
    }

    func value(_ key: String, module: String, session: UISessionID) -> String? {
        lock.withLock { sessions[session]?.values[module]?[key] }
    }

    func set(_ value: String, forKey key: String, module: String, session: UISessionID) {
        lock.withLock { sessions[session, default: Slot()].values[module, default: [:]][key] = value }
    }

    func delete(_ key: String, module: String, session: UISessionID) -> Bool {
        lock.withLock { sessions[session]?.values[module]?.removeValue(forKey: key) != nil }
    }

    /// Forgets everything of a session that has ended.
    public func end(_ session: UISessionID) {
        _ = lock.withLock { sessions.removeValue(forKey: session) }
    }

    /// Logs `username` out of every session (after `den users delete` in this process).
    func logOutEverywhere(_ username: String) {
        lock.withLock {
            for id in sessions.keys where sessions[id]?.user == username { sessions[id]?.user = nil }
        }
    }
}
