import CDenLibraries
import DenLibraryContracts
import DenSupport
import FoundationEssentials
import Synchronization

/// scrypt and SHA-256 from `libDenCrypto.so`, loaded on the first call (den_libraries.h).
/// A library that cannot be found or loaded fails each call with a `ServiceFailure` saying how
/// to fix it; nothing is hashed another way.
package final class CryptoLibrary: Sendable {
    private struct Functions: @unchecked Sendable {
        let scrypt: den_crypto_scrypt_fn
        let sha256: den_crypto_sha256_fn
    }

    /// The library the `auth` service hashes with.
    package static let shared = CryptoLibrary(library: nil)

    /// The library named here; nil: found on the first call (`defaultLibrary`).
    private let library: URL?
    private let loaded = Mutex<Result<Functions, ServiceFailure>?>(nil)

    package init(library: URL?) {
        self.library = library
    }

    /// `DEN_CRYPTO_LIBRARY` when set (tests, a relocated install), else the helper-library place.
    package static func defaultLibrary() -> URL? {
        if let named = ProcessEnvironment.value("DEN_CRYPTO_LIBRARY"), !named.isEmpty {
            return URL(fileURLWithPath: named)
        }
        return InstallLayout.current?.helperLibrary(DEN_CRYPTO_LIBRARY_FILE)
    }

    /// scrypt of `password` with `salt`, `keyLength` bytes.
    package func scrypt(_ password: [UInt8], salt: [UInt8], keyLength: Int, rounds: Int, blockSize: Int,
                       parallelism: Int, maxMemory: Int) throws(ServiceFailure) -> [UInt8] {
        let functions = try load()
        var key = [UInt8](repeating: 0, count: keyLength)
        var reason = [UInt8](repeating: 0, count: 512)
        var reasonLength = 0
        let status = key.withUnsafeMutableBufferPointer { keyBytes in
            reason.withUnsafeMutableBufferPointer { reasonBytes in
                functions.scrypt(password, password.count, salt, salt.count, rounds, blockSize, parallelism, maxMemory,
                                 keyBytes.baseAddress, keyLength, reasonBytes.baseAddress, reasonBytes.count, &reasonLength)
            }
        }
        guard status == 0 else {
            let text = String(decoding: reason.prefix(min(max(reasonLength, 0), reason.count)), as: UTF8.self)
            throw ServiceFailure(.internalError, "scrypt failed (\(text.isEmpty ? "no reason given" : text))")
        }
        return key
    }

    /// The 32-byte SHA-256 digest of `data`.
    package func sha256(_ data: [UInt8]) throws(ServiceFailure) -> [UInt8] {
        let functions = try load()
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBufferPointer { functions.sha256(data, data.count, $0.baseAddress) }
        return digest
    }

    private func load() throws(ServiceFailure) -> Functions {
        try loaded.withLock { loaded in
            if let loaded { return loaded }
            let result = Self.open(library ?? Self.defaultLibrary())
            loaded = result
            return result
        }.get()
    }

    private static func open(_ library: URL?) -> Result<Functions, ServiceFailure> {
        let fix = "rebuild Den with Scripts/build.sh, which builds \(DEN_CRYPTO_LIBRARY_FILE) beside den, or point DEN_CRYPTO_LIBRARY at it"
        guard let library else {
            return .failure(.unavailable("auth: cannot find \(DEN_CRYPTO_LIBRARY_FILE) (the executable's folder is unknown); \(fix)"))
        }
        let image: DynamicLibrary
        do { image = try DynamicLibrary.open(library.path) } catch {
            return .failure(.unavailable("auth: cannot load \(library.path) (\(error.message)); \(fix)"))
        }
        guard let scrypt = image.symbol(DEN_CRYPTO_SCRYPT), let sha256 = image.symbol(DEN_CRYPTO_SHA256) else {
            return .failure(.unavailable("auth: \(library.path) does not export \(DEN_CRYPTO_SCRYPT) and \(DEN_CRYPTO_SHA256); \(fix)"))
        }
        return .success(Functions(scrypt: unsafeBitCast(scrypt, to: den_crypto_scrypt_fn.self),
                                  sha256: unsafeBitCast(sha256, to: den_crypto_sha256_fn.self)))
    }
}
