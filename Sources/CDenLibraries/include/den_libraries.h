#ifndef DEN_LIBRARIES_H
#define DEN_LIBRARIES_H
/*
 * What den and the three libraries it opens at run time exchange: the C functions each library
 * exports, typed once. den calls them through these types; each library checks its own functions
 * against them when it compiles (a Swift `let _: den_..._fn = function`), so a signature cannot
 * drift on one side only. Not part of the module ABI (den_module.h): modules never see these.
 *
 * Each library is loaded on first use, not at start: each brings a large dependency den's start
 * does without (docs/START_PATH.md, "What a fresh process pays for").
 */
#include <stddef.h>
#include <stdint.h>
#include "den_module.h"

/* ---- libDenSQLiteStorage.so: the storage service's SQLite engine (GRDB, Foundation) ---- */

#define DEN_STORAGE_LIBRARY_FILE "libDenSQLiteStorage.so"

/** Hears each "waiting for another process" notice (UTF-8 text, not NUL-terminated). */
typedef void (*den_storage_report_fn)(void *context, const uint8_t *text, size_t length);

/**
 * den_storage_library_open: an engine for the data folder (UTF-8 path, `length` bytes), opened on
 * its first call. `report` (may be NULL) hears the engine's wait notices with `context`. Returns
 * NULL only without a folder. The engine and `context` stay valid until den_storage_library_close.
 */
typedef void *(*den_storage_library_open_fn)(const uint8_t *folder, size_t length,
                                             den_storage_report_fn report, void *context);
#define DEN_STORAGE_LIBRARY_OPEN "den_storage_library_open"

/**
 * den_storage_library_call: performs one storage call on `engine`. `call` is a JSON document
 * (DenLibraryContracts' StorageLibraryCall); `*answer` receives its StorageLibraryAnswer, to be
 * released by its `release`. Anything but DEN_OK means the call document could not be read.
 */
typedef int32_t (*den_storage_library_call_fn)(void *engine, const uint8_t *call, size_t length,
                                               den_owned *answer);
#define DEN_STORAGE_LIBRARY_CALL "den_storage_library_call"

/** den_storage_library_close: checkpoints and closes the engine's database, frees it; `report`
 *  is not called again. */
typedef void (*den_storage_library_close_fn)(void *engine);
#define DEN_STORAGE_LIBRARY_CLOSE "den_storage_library_close"

/*
 * The storage calls a request makes most, with plain arguments: no document is encoded or decoded
 * on either side. `ns` is the module's namespace. Each returns DEN_STORAGE_DONE or a failure's
 * kind, with its message (UTF-8) in *message, released by its `release`. den looks these up
 * optionally: a library without them is reached through den_storage_library_call alone.
 */
#define DEN_STORAGE_DONE 0
#define DEN_STORAGE_INVALID_ARGUMENT 1 /* a bad key, value or counter; nothing was written */
#define DEN_STORAGE_NOT_FOUND 2
#define DEN_STORAGE_UNAVAILABLE 3      /* the database cannot be used now; the message says why */
#define DEN_STORAGE_INTERNAL_ERROR 4

/** den_storage_library_get: *found is 1 and *value the value (owned), or *found is 0. */
typedef int32_t (*den_storage_library_get_fn)(void *engine, den_bytes ns, den_bytes key, int32_t *found,
                                              den_owned *value, den_owned *message);
#define DEN_STORAGE_LIBRARY_GET "den_storage_library_get"

/** den_storage_library_set: stores `value` under `key`. */
typedef int32_t (*den_storage_library_set_fn)(void *engine, den_bytes ns, den_bytes key, den_bytes value,
                                              den_owned *message);
#define DEN_STORAGE_LIBRARY_SET "den_storage_library_set"

/** den_storage_library_delete: removes `key`; *existed says whether it was there. */
typedef int32_t (*den_storage_library_delete_fn)(void *engine, den_bytes ns, den_bytes key, int32_t *existed,
                                                 den_owned *message);
#define DEN_STORAGE_LIBRARY_DELETE "den_storage_library_delete"

/** den_storage_library_increment: storage.increment; *value is the number now stored. */
typedef int32_t (*den_storage_library_increment_fn)(void *engine, den_bytes ns, den_bytes key, int64_t *value,
                                                    den_owned *message);
#define DEN_STORAGE_LIBRARY_INCREMENT "den_storage_library_increment"

/** den_storage_library_insert: a storage.transaction insert (StorageInsert); *id is the new id. */
typedef int32_t (*den_storage_library_insert_fn)(void *engine, den_bytes ns, den_bytes counter, den_bytes prefix,
                                                 den_bytes before, den_bytes after, int64_t *id,
                                                 den_owned *message);
#define DEN_STORAGE_LIBRARY_INSERT "den_storage_library_insert"

/**
 * den_storage_library_changes: *changes is a number that changes whenever another connection
 * (another process) commits to the database, and never for this engine's own commits (SQLite's
 * `PRAGMA data_version`). Optional even among these: den reads its held sessions afresh without it.
 */
typedef int32_t (*den_storage_library_changes_fn)(void *engine, uint64_t *changes, den_owned *message);
#define DEN_STORAGE_LIBRARY_CHANGES "den_storage_library_changes"

/* ---- libDenCrypto.so: the auth service's hashes, module signatures (swift-crypto, libsodium's BLAKE2b) ---- */

#define DEN_CRYPTO_LIBRARY_FILE "libDenCrypto.so"

/**
 * den_crypto_scrypt: scrypt (RFC 7914) of `password` with `salt` into the `key_length` bytes at
 * `key`. Returns 0, or 1 with the reason (UTF-8, at most `error_capacity` bytes at `error`, its
 * length in `*error_length`). The reason never holds the password.
 */
typedef int32_t (*den_crypto_scrypt_fn)(const uint8_t *password, size_t password_length,
                                        const uint8_t *salt, size_t salt_length,
                                        intptr_t rounds, intptr_t block_size, intptr_t parallelism,
                                        intptr_t max_memory, uint8_t *key, size_t key_length,
                                        uint8_t *error, size_t error_capacity, size_t *error_length);
#define DEN_CRYPTO_SCRYPT "den_crypto_scrypt"

/** den_crypto_sha256: SHA-256 of `length` bytes at `data` into the 32 bytes at `digest`. */
typedef void (*den_crypto_sha256_fn)(const uint8_t *data, size_t length, uint8_t *digest);
#define DEN_CRYPTO_SHA256 "den_crypto_sha256"

/**
 * den_crypto_blake2b: BLAKE2b (libsodium's crypto_generichash, unkeyed) of `length` bytes at
 * `data` into the `digest_length` (16 to 64) bytes at `digest`. Returns 0, or 1 for a bad length.
 * minisign's prehashed signatures (`ED`) sign a file's BLAKE2b-512 (docs/SIGNING.md).
 */
typedef int32_t (*den_crypto_blake2b_fn)(const uint8_t *data, size_t length, uint8_t *digest, size_t digest_length);
#define DEN_CRYPTO_BLAKE2B "den_crypto_blake2b"

/**
 * den_crypto_ed25519_verify: 1 when the 64 bytes at `signature` are an Ed25519 signature of
 * `length` bytes at `message` by the 32-byte public key at `public_key`, else 0.
 */
typedef int32_t (*den_crypto_ed25519_verify_fn)(const uint8_t *public_key, const uint8_t *message, size_t length,
                                                const uint8_t *signature);
#define DEN_CRYPTO_ED25519_VERIFY "den_crypto_ed25519_verify"

/**
 * den_crypto_ed25519_sign: the Ed25519 signature of `length` bytes at `message` by the key whose
 * 32-byte seed is at `seed`, into the 64 bytes at `signature`. Returns 0, or 1 on failure.
 */
typedef int32_t (*den_crypto_ed25519_sign_fn)(const uint8_t *seed, const uint8_t *message, size_t length,
                                              uint8_t *signature);
#define DEN_CRYPTO_ED25519_SIGN "den_crypto_ed25519_sign"

/**
 * den_crypto_ed25519_generate: a new key from the system's random source: its 32-byte seed into
 * `seed` and its 32-byte public key into `public_key`. With `generate` 0 it only derives the
 * public key of the seed already at `seed`. Returns 0, or 1 on failure.
 */
typedef int32_t (*den_crypto_ed25519_generate_fn)(int32_t generate, uint8_t *seed, uint8_t *public_key);
#define DEN_CRYPTO_ED25519_GENERATE "den_crypto_ed25519_generate"

/** den_crypto_random: `length` bytes from the system's random source into `bytes`. */
typedef void (*den_crypto_random_fn)(uint8_t *bytes, size_t length);
#define DEN_CRYPTO_RANDOM "den_crypto_random"

/* ---- libDenHTTPTransport.so: the http service's network I/O (FoundationNetworking, libcurl) ---- */

#define DEN_HTTP_TRANSPORT_LIBRARY_FILE "libDenHTTPTransport.so"

/**
 * den_http_transport_get: one blocking GET. `request` is a JSON TransportRequest; `*outcome`
 * receives a TransportOutcome (DenLibraryContracts), released by its `release`. Thread-safe;
 * blocks for at most the request's timeout. Anything but DEN_OK: the request could not be read.
 */
typedef int32_t (*den_http_transport_get_fn)(const uint8_t *request, size_t length, den_owned *outcome);
#define DEN_HTTP_TRANSPORT_GET "den_http_transport_get"

/**
 * Hears how many bytes of the answer's body have arrived so far, with the `context` given to
 * den_http_transport_get_progress. Called on the transport's own thread, at most ten times a
 * second, and once more with the whole body's count just before a complete answer is returned;
 * never after the call has returned. It must return quickly: the download waits for it.
 */
typedef void (*den_http_transport_progress_fn)(void *context, int64_t received);

/**
 * den_http_transport_get_progress: den_http_transport_get, telling `progress` (may be NULL) the
 * body's bytes as they arrive. The same request document, limits and outcome. Optional: den looks
 * it up by name, and reaches a library without it through den_http_transport_get alone (it then
 * hears the count once, when the answer is in).
 */
typedef int32_t (*den_http_transport_get_progress_fn)(const uint8_t *request, size_t length,
                                                      den_http_transport_progress_fn progress, void *context,
                                                      den_owned *outcome);
#define DEN_HTTP_TRANSPORT_GET_PROGRESS "den_http_transport_get_progress"

#endif
