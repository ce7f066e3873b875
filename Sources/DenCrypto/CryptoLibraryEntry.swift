import CDenLibraries
import Crypto
import CryptoExtras

// The two C functions `CryptoLibrary` calls, typed in den_libraries.h (SigningEntry.swift has the rest).

/// Never called: it compiles only while each function below has the type den_libraries.h gives
/// it, which is the type den calls it through.
private func signaturesMatchTheContract() {
    let _: den_crypto_scrypt_fn = denCryptoScrypt
    let _: den_crypto_sha256_fn = denCryptoSHA256
}
// swift-crypto lives here, not in den: linked into den it was a third of the executable, and
// relocating it cost every start about 0.4 ms (docs/START_PATH.md, "What a fresh process pays for").

/// scrypt of `password` with `salt` into `key`; 0, or 1 with BoringSSL's reason in `error`.
@_cdecl("den_crypto_scrypt")
public func denCryptoScrypt(_ password: UnsafePointer<UInt8>?, _ passwordLength: Int,
                            _ salt: UnsafePointer<UInt8>?, _ saltLength: Int,
                            _ rounds: Int, _ blockSize: Int, _ parallelism: Int, _ maxMemory: Int,
                            _ key: UnsafeMutablePointer<UInt8>?, _ keyLength: Int,
                            _ error: UnsafeMutablePointer<UInt8>?, _ errorCapacity: Int,
                            _ errorLength: UnsafeMutablePointer<Int>?) -> Int32 {
    let passwordBytes = UnsafeRawBufferPointer(start: password, count: password == nil ? 0 : passwordLength)
    let saltBytes = UnsafeRawBufferPointer(start: salt, count: salt == nil ? 0 : saltLength)
    do {
        let derived = try KDF.Scrypt.deriveKey(from: passwordBytes, salt: saltBytes, outputByteCount: keyLength,
                                               rounds: rounds, blockSize: blockSize, parallelism: parallelism,
                                               maxMemory: maxMemory)
        guard let key else { return 1 }
        derived.withUnsafeBytes { bytes in
            for index in 0..<min(keyLength, bytes.count) { key[index] = bytes[index] }
        }
        return 0
    } catch let failure {
        // BoringSSL's error never holds the password.
        let reason = Array("\(failure)".utf8.prefix(max(0, errorCapacity)))
        if let error { for index in reason.indices { error[index] = reason[index] } }
        errorLength?.pointee = reason.count
        return 1
    }
}

/// SHA-256 of `length` bytes at `data` into the 32 bytes at `digest`.
@_cdecl("den_crypto_sha256")
public func denCryptoSHA256(_ data: UnsafePointer<UInt8>?, _ length: Int, _ digest: UnsafeMutablePointer<UInt8>?) {
    guard let digest else { return }
    let hash = SHA256.hash(data: UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length))
    var index = 0
    for byte in hash {
        digest[index] = byte
        index += 1
    }
}
