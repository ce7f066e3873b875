import DenLibraryClients
import DenLibraryContracts
import DenTestSupport
import Foundation
import Testing

/// The `auth` service's hashes come from `libDenCrypto.so`, loaded on first use: the right
/// answers through it, and clear failures without it.
@Suite("scrypt and SHA-256 through libDenCrypto.so")
struct CryptoLibrarySpec {
    private func library() throws -> CryptoLibrary {
        CryptoLibrary(library: try BuildProducts.require(BuildProducts.library("DenCrypto")))
    }

    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("scrypt gives RFC 7914's test vectors")
    func scryptVectors() throws {
        let crypto = try library()
        let empty = try crypto.scrypt([], salt: [], keyLength: 64, rounds: 16, blockSize: 1, parallelism: 1, maxMemory: 1 << 24)
        #expect(hex(empty) == "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906")
        let nacl = try crypto.scrypt(Array("password".utf8), salt: Array("NaCl".utf8), keyLength: 64, rounds: 1024,
                                     blockSize: 8, parallelism: 16, maxMemory: 1 << 25)
        #expect(hex(nacl) == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
    }

    @Test("SHA-256 gives FIPS 180-2's test vectors")
    func sha256Vectors() throws {
        let crypto = try library()
        #expect(hex(try crypto.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(try crypto.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(hex(try crypto.sha256(long)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("parameters scrypt refuses fail with its reason, and the library stays usable")
    func refusedParameters() throws {
        let crypto = try library()
        #expect {
            _ = try crypto.scrypt(Array("pw".utf8), salt: [1], keyLength: 32, rounds: 1000, blockSize: 8, parallelism: 1, maxMemory: 1 << 25)
        } throws: { error in
            let failure = error as? ServiceFailure
            return failure?.kind == .internalError && failure?.message.hasPrefix("scrypt failed (") == true
                && failure?.message.contains("pw") == false
        }
        #expect(try crypto.sha256([0]).count == 32)
    }

    @Test("a missing library fails every call with the file it looked for and how to get it back")
    func missingLibrary() throws {
        let folder = try TemporaryDirectory("den-crypto")
        let missing = folder.path("libDenCrypto.so")
        let crypto = CryptoLibrary(library: missing)
        for _ in 0..<2 {
            #expect {
                _ = try crypto.sha256([1, 2, 3])
            } throws: { error in
                let failure = error as? ServiceFailure
                return failure?.kind == .unavailable && failure?.message.contains(missing.path) == true
                    && failure?.message.contains("Scripts/build.sh") == true && failure?.message.contains("DEN_CRYPTO_LIBRARY") == true
            }
        }
    }

    @Test("a library without the two functions is refused, naming them")
    func wrongLibrary() throws {
        let crypto = CryptoLibrary(library: try BuildProducts.require(BuildProducts.library("DenHTTPTransport")))
        #expect {
            _ = try crypto.scrypt([1], salt: [2], keyLength: 32, rounds: 16, blockSize: 1, parallelism: 1, maxMemory: 1 << 24)
        } throws: { error in
            let message = (error as? ServiceFailure)?.message ?? ""
            return message.contains("den_crypto_scrypt") && message.contains("den_crypto_sha256")
        }
    }
}
