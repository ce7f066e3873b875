import DenLibraryClients
import DenLibraryContracts
import FoundationEssentials

/// A stored password hash: scrypt's output with its salt and parameters. Never the password.
package struct PasswordHash: Codable, Sendable, Equatable {
    package var kdf = "scrypt"
    package var parameters: PasswordHashParameters
    /// Base64 of 16 random bytes, new for every hash.
    package var salt: String
    /// Base64 of 32 bytes of scrypt output.
    package var key: String
}

/// Hashes and verifies passwords with scrypt from swift-crypto's CryptoExtras (in `libDenCrypto.so`).
package enum PasswordHasher {
    package static let saltBytes = 16
    package static let keyBytes = 32

    /// A new hash of `password` with a fresh random salt.
    package static func hash(_ password: String, parameters: PasswordHashParameters) throws(ServiceFailure) -> PasswordHash {
        var generator = SystemRandomNumberGenerator()
        let salt = Data((0..<saltBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let key = try derive(password, salt: salt, parameters: parameters)
        return PasswordHash(parameters: parameters, salt: salt.base64EncodedString(), key: key.base64EncodedString())
    }

    /// Whether `password` matches `stored`, compared in constant time. Always does the full
    /// scrypt work, so a wrong password costs as long as a right one.
    package static func verify(_ password: String, against stored: PasswordHash) throws(ServiceFailure) -> Bool {
        guard let salt = Data(base64Encoded: stored.salt), let expected = Data(base64Encoded: stored.key) else {
            throw ServiceFailure(.internalError, "auth: a stored password hash is damaged; reset the password with `den users reset-token <username>`")
        }
        let actual = try derive(password, salt: salt, parameters: stored.parameters)
        return constantTimeEqual(actual, expected)
    }

    /// The hash a login for an unknown user is checked against, so it costs as long as a real one.
    package static func dummy(_ parameters: PasswordHashParameters) -> PasswordHash {
        PasswordHash(parameters: parameters, salt: Data(repeating: 0x5A, count: saltBytes).base64EncodedString(),
                     key: Data(repeating: 0, count: keyBytes).base64EncodedString())
    }

    /// Compares every byte whatever the first difference, so timing tells nothing of where it is.
    package static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }

    private static func derive(_ password: String, salt: Data, parameters: PasswordHashParameters) throws(ServiceFailure) -> Data {
        if let problem = parameters.problem { throw ServiceFailure(.internalError, "auth: \(problem); fix the host's auth settings") }
        do {
            return Data(try CryptoLibrary.shared.scrypt(Array(password.utf8), salt: Array(salt), keyLength: keyBytes,
                                                        rounds: parameters.rounds, blockSize: parameters.blockSize,
                                                        parallelism: parameters.parallelism, maxMemory: parameters.memoryLimit))
        } catch where error.kind == .unavailable {
            throw error // the library is missing: its message says how to fix that
        } catch {
            // The reason is BoringSSL's and never holds the password.
            throw ServiceFailure(.internalError, "auth: \(error.message) with \(parameters); lower the parameters in the host's auth settings")
        }
    }
}
