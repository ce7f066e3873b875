// What the host and `libDenCrypto.so` exchange: the `auth` service's two hash functions, as C
// functions (DESIGN: only C types between images). swift-crypto is a library of its own, loaded
// on the first password or reset-token hash, because linked into `den` it was a third of the
// executable and every start paid to relocate it (docs/PERFORMANCE.md, "What a fresh process pays for").

/// The library's file, expected beside `den` (in a build folder) or in `<prefix>/lib/den`.
public let cryptoLibraryFile = "libDenCrypto.so"

/// `int32_t den_crypto_scrypt(const uint8_t *password, size_t password_length,
///     const uint8_t *salt, size_t salt_length, intptr_t rounds, intptr_t block_size,
///     intptr_t parallelism, intptr_t max_memory, uint8_t *key, size_t key_length,
///     uint8_t *error, size_t error_capacity, size_t *error_length)`:
/// scrypt (RFC 7914, swift-crypto's `KDF.Scrypt`) into the `key_length` bytes at `key`; 0, or 1
/// with the reason (UTF-8, at most `error_capacity` bytes, its length in `*error_length`).
public let cryptoScryptSymbol = "den_crypto_scrypt"

/// `void den_crypto_sha256(const uint8_t *data, size_t length, uint8_t digest[32])`.
public let cryptoSHA256Symbol = "den_crypto_sha256"

typealias CryptoScryptFunction = @convention(c) (
    UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int, Int, Int, Int, Int,
    UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> Int32

typealias CryptoSHA256Function = @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> Void
