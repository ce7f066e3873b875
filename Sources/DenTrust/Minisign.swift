import DenHost
import FoundationEssentials

/// minisign's file formats (https://jedisct1.github.io/minisign/), so module authors can sign
/// with Debian's `minisign` and den reads what it writes, and the reverse (docs/SIGNING.md).
/// Text in, values out: no cryptography here (`SigningLibrary` does that).
package enum Minisign {
    /// `Ed`: the signature algorithm, and the legacy signatures (`minisign -S -l`) over the file itself.
    static let legacyAlgorithm: [UInt8] = Array("Ed".utf8)
    /// `ED`: signatures over the file's BLAKE2b-512 (minisign's default).
    static let prehashedAlgorithm: [UInt8] = Array("ED".utf8)

    /// A key id as minisign prints it: its eight bytes as a little-endian number, in hex.
    package static func keyIDText(_ bytes: [UInt8]) -> String {
        bytes.reversed().map { byte in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
        }.joined()
    }

    package struct Problem: Error, Equatable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    /// The base64 line after a comment line, or a bare base64 line (`minisign -P <key>`).
    private static func payload(_ text: String, expectedCount: Int, what: String) throws(Problem) -> [UInt8] {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        guard let line = lines.first(where: { !$0.hasPrefix("untrusted comment:") }) else {
            throw Problem("it holds no \(what) (a minisign \(what) is a comment line, then one line of base64)")
        }
        guard let data = Data(base64Encoded: String(line)) else { throw Problem("its \(what) line is not base64") }
        guard data.count == expectedCount else {
            throw Problem("its \(what) is \(data.count) bytes, not the \(expectedCount) of a minisign Ed25519 \(what)")
        }
        return Array(data)
    }

    /// `untrusted comment: …` then base64 of `Ed`, the key id (8 bytes) and the key (32 bytes).
    package struct PublicKey: Sendable, Equatable {
        package var keyID: [UInt8]
        package var key: [UInt8]

        package init(keyID: [UInt8], key: [UInt8]) {
            self.keyID = keyID
            self.key = key
        }

        package init(text: String) throws(Problem) {
            let bytes = try payload(text, expectedCount: 42, what: "public key")
            guard Array(bytes[0..<2]) == legacyAlgorithm else { throw Problem("it is not an Ed25519 public key (its algorithm is not \"Ed\")") }
            keyID = Array(bytes[2..<10])
            key = Array(bytes[10..<42])
        }

        package var keyIDText: String { Minisign.keyIDText(keyID) }
        /// The base64 line alone.
        package var base64: String { Data(legacyAlgorithm + keyID + key).base64EncodedString() }
        package var fileText: String { "untrusted comment: minisign public key \(keyIDText)\n\(base64)\n" }
    }

    /// minisign's secret key file, unencrypted (`minisign -G -W`): den keeps its keys so (mode
    /// 0600) and reads such a file from minisign. A password-protected one is refused.
    package struct SecretKey: Sendable, Equatable {
        package var keyID: [UInt8]
        /// The Ed25519 seed (libsodium's secret key is this seed, then the public key).
        package var seed: [UInt8]
        package var publicKey: [UInt8]

        package init(keyID: [UInt8], seed: [UInt8], publicKey: [UInt8]) {
            self.keyID = keyID
            self.seed = seed
            self.publicKey = publicKey
        }

        /// Layout: `Ed`, KDF (`Sc` or two zero bytes), checksum algorithm `B2`, KDF salt (32),
        /// opslimit (8), memlimit (8), key id (8), secret key (64), checksum (32).
        package init(text: String, blake2b: ([UInt8], Int) -> [UInt8]?) throws(Problem) {
            let bytes = try payload(text, expectedCount: 158, what: "secret key")
            guard Array(bytes[0..<2]) == legacyAlgorithm else { throw Problem("it is not an Ed25519 secret key") }
            guard bytes[2] == 0, bytes[3] == 0 else {
                throw Problem("it is protected by a password, which den does not ask for; sign with `minisign -S -s <key> -t '<trusted comment>' -m <file>` (the comment `den modules sign --print-comment <file>` prints), or make an unprotected key with `minisign -G -W` or `den keys generate`")
            }
            let keyID = Array(bytes[54..<62]), secret = Array(bytes[62..<126]), checksum = Array(bytes[126..<158])
            // minisign 0.11 (Debian 12) leaves an unprotected key's checksum zero; later ones fill it.
            guard checksum.allSatisfy({ $0 == 0 }) || blake2b(legacyAlgorithm + keyID + secret, 32) == checksum else {
                throw Problem("its checksum does not match (a damaged or hand-edited key file)")
            }
            self.init(keyID: keyID, seed: Array(secret[0..<32]), publicKey: Array(secret[32..<64]))
        }

        package func fileText(blake2b: ([UInt8], Int) -> [UInt8]?) -> String? {
            let secret = seed + publicKey
            guard let checksum = blake2b(legacyAlgorithm + keyID + secret, 32) else { return nil }
            let bytes = legacyAlgorithm + [0, 0] + Array("B2".utf8) + [UInt8](repeating: 0, count: 48) + keyID + secret + checksum
            return "untrusted comment: minisign secret key (unencrypted; den keys generate)\n\(Data(bytes).base64EncodedString())\n"
        }

        package var publicKeyValue: PublicKey { PublicKey(keyID: keyID, key: publicKey) }
    }

    /// A `.minisig` file: an untrusted comment, base64 of the algorithm, key id and signature, a
    /// trusted comment, and base64 of the global signature over the signature and the trusted comment.
    package struct Signature: Sendable, Equatable {
        package var prehashed: Bool
        package var keyID: [UInt8]
        package var signature: [UInt8]
        package var trustedComment: String
        package var globalSignature: [UInt8]
        package var untrustedComment: String

        package init(prehashed: Bool, keyID: [UInt8], signature: [UInt8], trustedComment: String, globalSignature: [UInt8],
                     untrustedComment: String) {
            self.prehashed = prehashed
            self.keyID = keyID
            self.signature = signature
            self.trustedComment = trustedComment
            self.globalSignature = globalSignature
            self.untrustedComment = untrustedComment
        }

        package init(text: String) throws(Problem) {
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" })
                .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
            guard lines.count >= 4, lines[0].hasPrefix("untrusted comment:"), lines[2].hasPrefix("trusted comment: ") else {
                throw Problem("it is not a minisign signature (four lines: an untrusted comment, the signature, a trusted comment, the global signature)")
            }
            guard let main = Data(base64Encoded: lines[1].trimmingWhitespace()), main.count == 74 else {
                throw Problem("its signature line is not 74 bytes of base64")
            }
            guard let global = Data(base64Encoded: lines[3].trimmingWhitespace()), global.count == 64 else {
                throw Problem("its global signature line is not 64 bytes of base64")
            }
            let algorithm = Array(main[0..<2])
            guard algorithm == prehashedAlgorithm || algorithm == legacyAlgorithm else {
                throw Problem("its algorithm is neither ED nor Ed")
            }
            self.init(prehashed: algorithm == prehashedAlgorithm, keyID: Array(main[2..<10]), signature: Array(main[10..<74]),
                      trustedComment: String(lines[2].dropFirst("trusted comment: ".count)), globalSignature: Array(global),
                      untrustedComment: String(lines[0].dropFirst("untrusted comment:".count).drop { $0 == " " }))
        }

        package var keyIDText: String { Minisign.keyIDText(keyID) }

        /// What the global signature signs.
        package var globalMessage: [UInt8] { signature + Array(trustedComment.utf8) }

        package var fileText: String {
            let main = (prehashed ? prehashedAlgorithm : legacyAlgorithm) + keyID + signature
            return """
                untrusted comment: \(untrustedComment)
                \(Data(main).base64EncodedString())
                trusted comment: \(trustedComment)
                \(Data(globalSignature).base64EncodedString())

                """
        }
    }
}
