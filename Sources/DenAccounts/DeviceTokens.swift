import DenLibraryClients
import DenLibraryContracts
import DenKit
import DenSupport
import FoundationEssentials
import Synchronization

/// Device cookies (OWASP "Slow brute force attacks: device cookies"): after a good login the
/// browser gets a token naming the account, signed with HMAC-SHA256 under a key only the host
/// knows. A later login to that account that brings the token comes from a device the owner used
/// before, so the account's growing delay does not hold it up. Tokens are `<user>:<id>:<mac>`
/// (the id is 64 random bits); nothing is stored per token.
package final class DeviceTokens: Sendable {
    private let store: AccountStore
    private let key = Mutex<[UInt8]?>(nil)
    package static let keyName = "device-key"

    package init(store: AccountStore) {
        self.store = store
    }

    /// A new token for `user`.
    package func issue(for user: String) throws(ServiceFailure) -> String {
        var generator = SystemRandomNumberGenerator()
        let id = NumberText.hex((0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        return "\(user):\(id):\(try mac("\(user):\(id)"))"
    }

    /// The account and id a token names, when its signature is this host's; nil otherwise.
    package func verify(_ token: String) -> (user: String, id: String)? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[0].count <= 64, parts[1].count == 16, parts[2].count == 64,
              let expected = try? mac("\(parts[0]):\(parts[1])"),
              Self.constantTimeEqual(Array(expected.utf8), Array(parts[2].utf8)) else { return nil }
        return (parts[0], parts[1])
    }

    private func mac(_ message: String) throws(ServiceFailure) -> String {
        let key = try signingKey()
        let crypto = CryptoLibrary.shared
        let inner = try crypto.sha256(key.map { $0 ^ 0x36 } + Array(message.utf8))
        return NumberText.hex(try crypto.sha256(key.map { $0 ^ 0x5c } + inner))
    }

    /// 64 random bytes kept in the host's own storage namespace, so tokens outlive a restart.
    private func signingKey() throws(ServiceFailure) -> [UInt8] {
        if let known = key.withLock({ $0 }) { return known }
        let stored = try store.engine.get(namespace: AccountStore.namespace, key: Self.keyName)
        var bytes = stored.flatMap(Self.bytes(hex:)) ?? []
        if bytes.count != 64 {
            var generator = SystemRandomNumberGenerator()
            bytes = (0..<64).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            try store.apply([.set(key: Self.keyName, value: NumberText.hex(bytes))])
        }
        key.withLock { $0 = bytes }
        return bytes
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            result.append(byte)
        }
        return result
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
