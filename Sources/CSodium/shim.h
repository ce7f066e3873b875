/* libsodium (Debian libsodium-dev, installed by Scripts/setup.sh), linked only into
 * libDenCrypto.so for BLAKE2b (crypto_generichash): minisign's prehashed signatures sign a
 * file's BLAKE2b-512, which swift-crypto does not offer (docs/SIGNING.md). */
#include <sodium.h>
