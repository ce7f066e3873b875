import DenLibraryContracts
import DenKit
import DenSupport
import FoundationEssentials
import Synchronization

/// One user as stored under `user/<username>` in the host's own namespace.
package struct UserRecord: Codable, Sendable, Equatable {
    package static func newAccountID() -> String {
        var generator = SystemRandomNumberGenerator()
        return NumberText.hex((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// What identifies this account, and its current password, across processes: a session
    /// logged in under another identity is logged out at its next read (`SessionStore`), on
    /// every host, so a password change or reset ends every other session of the account.
    package var identity: String {
        let account = account ?? "created:\(created.timeIntervalSince1970)"
        guard let passwordChanges, passwordChanges > 0 else { return account }
        return "\(account)/\(passwordChanges)"
    }

    package var username: String
    package var hash: PasswordHash
    package var created: Date
    /// 128 random bits (hex) naming this account: a new account of a deleted user's name gets
    /// another, so a session of the old one cannot pass for the new one (`SessionStore`).
    /// Records written before it existed have none; their creation time stands in.
    package var account: String?
    /// Failed logins since the last success or lockout.
    package var failedAttempts = 0
    package var lockedUntil: Date?
    /// SHA-256 (hex) of the user's current reset token, so a new token retires the old one.
    package var resetTokenHash: String?
    /// Password changes and resets so far (part of `identity`); nil in records written before.
    package var passwordChanges: Int?
}

/// A reset token's record under `reset/<sha256 hex>`: the token itself is never stored.
package struct ResetRecord: Codable, Sendable, Equatable {
    package var username: String
    package var expires: Date
}

/// Reads and writes `UserRecord`s through a `StorageEngine`, in a namespace no module can reach:
/// module ids never contain '@' (ModuleIdentity.idRule), and the storage service always uses the
/// caller's module id, so `storage.*` cannot name this one.
package struct AccountStore: Sendable {
    package static let namespace = "@den.auth"
    package let engine: any StorageEngine
    private let decoded = DecodedUsers()
    private let identities = KnownIdentities()

    package init(engine: any StorageEngine) {
        self.engine = engine
        let identities = identities
        // On PostgreSQL every overwrite of an account record is announced: identities are kept
        // until then, so a logged-in request reads no account (elsewhere every check reads).
        _ = engine.watchChanges(in: Self.namespace) { [weak identities] event in identities?.heard(event) }
    }

    /// `user(username)?.identity`, from memory while no change to the record can have gone unheard.
    package func identity(_ username: String) throws(ServiceFailure) -> String? {
        if let known = identities.identity(username) { return known }
        let generation = identities.generation
        let identity = try user(username)?.identity
        if let identity { identities.keep(identity, of: username, since: generation) }
        return identity
    }

    package static func userKey(_ username: String) -> String { "user/\(username)" }
    package static func resetKey(_ tokenHash: String) -> String { "reset/\(tokenHash)" }

    /// Read on every step of a logged-in session (its identity is checked), so a record whose
    /// stored text has not changed is not decoded again.
    package func user(_ username: String) throws(ServiceFailure) -> UserRecord? {
        guard let text = try engine.get(namespace: Self.namespace, key: Self.userKey(username)) else { return nil }
        if let record = decoded.record(username, text: text) { return record }
        let record = try Self.decode(UserRecord.self, text)
        decoded.keep(record, as: username, text: text)
        return record
    }

    package func users() throws(ServiceFailure) -> [UserRecord] {
        var records: [UserRecord] = []
        for entry in try engine.list(namespace: Self.namespace, prefix: "user/") {
            records.append(try Self.decode(UserRecord.self, entry.value))
        }
        return records
    }

    package func reset(_ tokenHash: String) throws(ServiceFailure) -> ResetRecord? {
        try engine.get(namespace: Self.namespace, key: Self.resetKey(tokenHash)).map { text throws(ServiceFailure) in try Self.decode(ResetRecord.self, text) }
    }

    /// Writes every operation in one transaction.
    package func apply(_ operations: [StorageOperation]) throws(ServiceFailure) {
        identities.forgetAll() // before the write: no read in between keeps what it replaces
        try engine.apply(namespace: Self.namespace, operations: operations)
    }

    /// Before a write that reaches account records another way (`apply(across:)`).
    package func willWrite() {
        identities.forgetAll()
    }

    package static func set(_ record: UserRecord) throws(ServiceFailure) -> StorageOperation {
        .set(key: userKey(record.username), value: try encode(record))
    }

    package static func set(_ record: ResetRecord, tokenHash: String) throws(ServiceFailure) -> StorageOperation {
        .set(key: resetKey(tokenHash), value: try encode(record))
    }

    private static func encode<T: Encodable>(_ value: T) throws(ServiceFailure) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        do { return String(decoding: try encoder.encode(value), as: UTF8.self) } catch {
            throw ServiceFailure(.internalError, "auth: could not encode an account record: \(error)")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws(ServiceFailure) -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do { return try decoder.decode(type, from: Data(text.utf8)) } catch {
            throw ServiceFailure(.internalError, "auth: an account record in the host's storage is damaged (\(WireFormat.describe(error))); delete the user with `den users delete` and add them again")
        }
    }
}

/// The last decoded record of each user, by the exact text it was decoded from: the read still
/// goes to storage (another process or host may have written), only the decoding is saved.
private final class DecodedUsers: Sendable {
    private static let capacity = 4096
    private let records = Mutex<[String: (text: String, record: UserRecord)]>([:])

    func record(_ username: String, text: String) -> UserRecord? {
        records.withLock { records in records[username].flatMap { $0.text == text ? $0.record : nil } }
    }

    func keep(_ record: UserRecord, as username: String, text: String) {
        records.withLock { records in
            if records.count >= Self.capacity { records.removeAll(keepingCapacity: true) }
            records[username] = (text, record)
        }
    }
}

/// Account identities by username, kept only while the engine reports every change to account
/// records (`StorageEngine.watchChanges`, PostgreSQL): a change heard, this process's own write,
/// or reports stopping forgets them. `generation` keeps a read that began before a change from
/// keeping what it read.
private final class KnownIdentities: Sendable {
    private struct State {
        var hearing = false
        var generation: UInt64 = 0
        var identities: [String: String] = [:]
    }

    private static let capacity = 4096
    private let state = Mutex(State())

    var generation: UInt64 { state.withLock { $0.generation } }

    func identity(_ username: String) -> String? {
        state.withLock { $0.hearing ? $0.identities[username] : nil }
    }

    func keep(_ identity: String, of username: String, since generation: UInt64) {
        state.withLock { state in
            guard state.hearing, state.generation == generation else { return }
            if state.identities.count >= Self.capacity { state.identities.removeAll(keepingCapacity: true) }
            state.identities[username] = identity
        }
    }

    func forgetAll() {
        state.withLock { state in
            state.generation &+= 1
            state.identities.removeAll()
        }
    }

    func heard(_ event: StorageChange) {
        state.withLock { state in
            state.generation &+= 1
            switch event {
            case .watching: state.hearing = true; state.identities.removeAll()
            case .stopped: state.hearing = false; state.identities.removeAll()
            case .changed(let key):
                // Only `user/<name>` holds an identity; a reset token's record changes none.
                if key.hasPrefix("user/") { state.identities[String(key.dropFirst("user/".count))] = nil }
            }
        }
    }
}
