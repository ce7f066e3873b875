import Crypto
import CryptoExtras
import Foundation
import Hummingbird
import Synchronization

/// Browser sessions kept in memory, as den serve keeps them: a random 128-bit id in an HttpOnly,
/// SameSite=Lax cookie, a random 128-bit CSRF token per session that every form carries, 30
/// minutes of idle expiry, at most 1000 live sessions, and a new id when the user logs in.
final class Sessions: Sendable {
    static let cookieName = "jogs_session"
    static let idleLimit: Duration = .seconds(30 * 60)
    static let maxSessions = 1000

    struct Session: Sendable {
        var id: String
        var csrf: String
        var user: String?
        var lastUsed: ContinuousClock.Instant
    }

    private let table = Mutex<[String: Session]>([:])

    /// The cookie's live session, or a new one (`isNew`: the response must set the cookie).
    func session(for request: Request) -> (session: Session, isNew: Bool) {
        let now = ContinuousClock.now
        let id = request.cookies[Self.cookieName]?.value
        return table.withLock { table in
            if let id, var session = table[id] {
                if now - session.lastUsed < Self.idleLimit {
                    session.lastUsed = now
                    table[id] = session
                    return (session, false)
                }
                table[id] = nil
            }
            if table.count >= Self.maxSessions, let oldest = table.values.min(by: { $0.lastUsed < $1.lastUsed }) {
                table[oldest.id] = nil
            }
            let session = Session(id: Self.token(), csrf: Self.token(), user: nil, lastUsed: now)
            table[session.id] = session
            return (session, true)
        }
    }

    /// The cookie's live session without making one (a form needs an existing session).
    func existing(for request: Request) -> Session? {
        guard let id = request.cookies[Self.cookieName]?.value else { return nil }
        let now = ContinuousClock.now
        return table.withLock { table in
            guard var session = table[id], now - session.lastUsed < Self.idleLimit else { return nil }
            session.lastUsed = now
            table[id] = session
            return session
        }
    }

    /// Logs `user` in (or out, nil) and gives the session a new id; returns the new id.
    func setUser(_ user: String?, of session: Session) -> String {
        let newID = Self.token()
        table.withLock { table in
            var moved = table.removeValue(forKey: session.id) ?? session
            moved.id = newID
            moved.user = user
            table[newID] = moved
        }
        return newID
    }

    static func cookie(_ id: String) -> Cookie {
        Cookie(name: cookieName, value: id, path: "/", httpOnly: true, sameSite: .lax)
    }

    static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        let high: UInt64 = generator.next(), low: UInt64 = generator.next()
        let a = String(high, radix: 16), b = String(low, radix: 16)
        return String(repeating: "0", count: 16 - a.count) + a + String(repeating: "0", count: 16 - b.count) + b
    }

    /// Compared in constant time over the expected token.
    static func csrfMatches(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8), b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in b.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

/// scrypt with den's standard parameters (N = 2^15, r = 8, p = 1: `PasswordHashParameters.standard`),
/// 16 random bytes of salt, 32 bytes of key — paid at registration and login only.
struct ScryptParameters: Sendable {
    var rounds: Int
    var blockSize: Int
    var parallelism: Int
    static let standard = ScryptParameters(rounds: 1 << 15, blockSize: 8, parallelism: 1)
}

struct Account: Sendable {
    var salt: Data
    var hash: Data
    var parameters: ScryptParameters

    static func make(password: String) throws -> Account {
        var generator = SystemRandomNumberGenerator()
        let salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let parameters = ScryptParameters.standard
        return Account(salt: salt, hash: try derive(password, salt: salt, parameters), parameters: parameters)
    }

    func verify(_ password: String) throws -> Bool {
        let actual = try Self.derive(password, salt: salt, parameters)
        guard actual.count == hash.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(actual, hash) { difference |= x ^ y }
        return difference == 0
    }

    static func derive(_ password: String, salt: Data, _ p: ScryptParameters) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(from: Data(password.utf8), salt: salt, outputByteCount: 32,
                                           rounds: p.rounds, blockSize: p.blockSize, parallelism: p.parallelism,
                                           maxMemory: 128 * p.blockSize * (p.rounds + p.parallelism + 2) + (1 << 20))
        return key.withUnsafeBytes { Data($0) }
    }
}
