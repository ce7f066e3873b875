import CDenLibraries
import CSodium
import Crypto

// The signing functions `SigningLibrary` (DenHost) calls, typed in den_libraries.h: Ed25519 from
// swift-crypto, BLAKE2b from libsodium (minisign's prehash; swift-crypto has none).

/// Never called: it compiles only while each function below has the type den_libraries.h gives it.
private func signingSignaturesMatchTheContract() {
    let _: den_crypto_blake2b_fn = denCryptoBLAKE2b
    let _: den_crypto_ed25519_verify_fn = denCryptoEd25519Verify
    let _: den_crypto_ed25519_sign_fn = denCryptoEd25519Sign
    let _: den_crypto_ed25519_generate_fn = denCryptoEd25519Generate
    let _: den_crypto_random_fn = denCryptoRandom
}

@_cdecl("den_crypto_blake2b")
public func denCryptoBLAKE2b(_ data: UnsafePointer<UInt8>?, _ length: Int, _ digest: UnsafeMutablePointer<UInt8>?,
                             _ digestLength: Int) -> Int32 {
    guard let digest, digestLength >= Int(crypto_generichash_BYTES_MIN), digestLength <= Int(crypto_generichash_BYTES_MAX) else { return 1 }
    // sodium_init is idempotent and thread-safe; generichash needs no more than that.
    _ = sodium_init()
    return crypto_generichash(digest, digestLength, data, UInt64(data == nil ? 0 : length), nil, 0) == 0 ? 0 : 1
}

@_cdecl("den_crypto_ed25519_verify")
public func denCryptoEd25519Verify(_ publicKey: UnsafePointer<UInt8>?, _ message: UnsafePointer<UInt8>?, _ length: Int,
                                   _ signature: UnsafePointer<UInt8>?) -> Int32 {
    guard let publicKey, let signature,
          let key = try? Curve25519.Signing.PublicKey(rawRepresentation: UnsafeRawBufferPointer(start: publicKey, count: 32)) else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: message, count: message == nil ? 0 : length)
    return key.isValidSignature(UnsafeRawBufferPointer(start: signature, count: 64), for: bytes) ? 1 : 0
}

@_cdecl("den_crypto_ed25519_sign")
public func denCryptoEd25519Sign(_ seed: UnsafePointer<UInt8>?, _ message: UnsafePointer<UInt8>?, _ length: Int,
                                 _ signature: UnsafeMutablePointer<UInt8>?) -> Int32 {
    guard let seed, let signature,
          let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: UnsafeRawBufferPointer(start: seed, count: 32)),
          let signed = try? key.signature(for: UnsafeRawBufferPointer(start: message, count: message == nil ? 0 : length)),
          signed.count == 64 else { return 1 }
    for (index, byte) in signed.enumerated() { signature[index] = byte }
    return 0
}

@_cdecl("den_crypto_ed25519_generate")
public func denCryptoEd25519Generate(_ generate: Int32, _ seed: UnsafeMutablePointer<UInt8>?,
                                     _ publicKey: UnsafeMutablePointer<UInt8>?) -> Int32 {
    guard let seed, let publicKey else { return 1 }
    let key: Curve25519.Signing.PrivateKey
    if generate != 0 {
        key = Curve25519.Signing.PrivateKey()
        for (index, byte) in key.rawRepresentation.enumerated() { seed[index] = byte }
    } else {
        guard let derived = try? Curve25519.Signing.PrivateKey(rawRepresentation: UnsafeRawBufferPointer(start: seed, count: 32)) else { return 1 }
        key = derived
    }
    for (index, byte) in key.publicKey.rawRepresentation.enumerated() { publicKey[index] = byte }
    return 0
}

@_cdecl("den_crypto_random")
public func denCryptoRandom(_ bytes: UnsafeMutablePointer<UInt8>?, _ length: Int) {
    guard let bytes else { return }
    _ = sodium_init()
    randombytes_buf(bytes, length)
}
