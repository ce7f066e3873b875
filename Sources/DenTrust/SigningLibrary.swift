import DenHost
import CDenLibraries
import DenLibraryClients
import DenSupport
import FoundationEssentials
import Synchronization

/// Ed25519 and BLAKE2b from `libDenCrypto.so`, loaded on the first signature den checks or makes
/// (den_libraries.h): a start whose verdicts are all cached (`SignatureIndex`) never loads it.
package final class SigningLibrary: Sendable {
    private struct Functions: @unchecked Sendable {
        let blake2b: den_crypto_blake2b_fn
        let verify: den_crypto_ed25519_verify_fn
        let sign: den_crypto_ed25519_sign_fn
        let generate: den_crypto_ed25519_generate_fn
        let random: den_crypto_random_fn
    }

    package struct Unavailable: Error, CustomStringConvertible {
        package var description: String
    }

    package static let shared = SigningLibrary(library: nil)

    private let library: URL?
    private let loaded = Mutex<Result<Functions, Unavailable>?>(nil)

    package init(library: URL?) {
        self.library = library
    }

    package func blake2b(_ bytes: [UInt8], length: Int) throws(Unavailable) -> [UInt8] {
        let functions = try load()
        var digest = [UInt8](repeating: 0, count: length)
        let status = digest.withUnsafeMutableBufferPointer { functions.blake2b(bytes, bytes.count, $0.baseAddress, length) }
        guard status == 0 else { throw Unavailable(description: "BLAKE2b refused a \(length)-byte digest") }
        return digest
    }

    package func verify(publicKey: [UInt8], message: [UInt8], signature: [UInt8]) throws(Unavailable) -> Bool {
        let functions = try load()
        guard publicKey.count == 32, signature.count == 64 else { return false }
        return functions.verify(publicKey, message, message.count, signature) == 1
    }

    package func sign(seed: [UInt8], message: [UInt8]) throws(Unavailable) -> [UInt8] {
        let functions = try load()
        var signature = [UInt8](repeating: 0, count: 64)
        let status = signature.withUnsafeMutableBufferPointer { functions.sign(seed, message, message.count, $0.baseAddress) }
        guard status == 0, seed.count == 32 else { throw Unavailable(description: "Ed25519 signing failed (a damaged key?)") }
        return signature
    }

    /// A new key: its seed and public key.
    package func generateKey() throws(Unavailable) -> (seed: [UInt8], publicKey: [UInt8]) {
        let functions = try load()
        var seed = [UInt8](repeating: 0, count: 32), publicKey = [UInt8](repeating: 0, count: 32)
        let status = seed.withUnsafeMutableBufferPointer { seedBytes in
            publicKey.withUnsafeMutableBufferPointer { functions.generate(1, seedBytes.baseAddress, $0.baseAddress) }
        }
        guard status == 0 else { throw Unavailable(description: "Ed25519 key generation failed") }
        return (seed, publicKey)
    }

    package func random(_ count: Int) throws(Unavailable) -> [UInt8] {
        let functions = try load()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBufferPointer { functions.random($0.baseAddress, count) }
        return bytes
    }

    private func load() throws(Unavailable) -> Functions {
        try loaded.withLock { loaded in
            if let loaded { return loaded }
            let result = Self.open(library ?? CryptoLibrary.defaultLibrary())
            loaded = result
            return result
        }.get()
    }

    private static func open(_ library: URL?) -> Result<Functions, Unavailable> {
        let fix = "rebuild Den with Scripts/build.sh, which builds \(DEN_CRYPTO_LIBRARY_FILE) beside den, or point DEN_CRYPTO_LIBRARY at it"
        guard let library else {
            return .failure(Unavailable(description: "cannot find \(DEN_CRYPTO_LIBRARY_FILE) to check signatures with; \(fix)"))
        }
        let image: DynamicLibrary
        do { image = try DynamicLibrary.open(library.path) } catch {
            return .failure(Unavailable(description: "cannot load \(library.path) to check signatures with (\(error.message)); \(fix)"))
        }
        guard let blake2b = image.symbol(DEN_CRYPTO_BLAKE2B), let verify = image.symbol(DEN_CRYPTO_ED25519_VERIFY),
              let sign = image.symbol(DEN_CRYPTO_ED25519_SIGN), let generate = image.symbol(DEN_CRYPTO_ED25519_GENERATE),
              let random = image.symbol(DEN_CRYPTO_RANDOM) else {
            return .failure(Unavailable(description: "\(library.path) has no signature functions (an older build?); \(fix)"))
        }
        return .success(Functions(blake2b: unsafeBitCast(blake2b, to: den_crypto_blake2b_fn.self),
                                  verify: unsafeBitCast(verify, to: den_crypto_ed25519_verify_fn.self),
                                  sign: unsafeBitCast(sign, to: den_crypto_ed25519_sign_fn.self),
                                  generate: unsafeBitCast(generate, to: den_crypto_ed25519_generate_fn.self),
                                  random: unsafeBitCast(random, to: den_crypto_random_fn.self)))
    }
}
