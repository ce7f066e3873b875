import DenHost
import DenLibraryClients
import FoundationEssentials

/// What den signs and checks: a minisign signature over the module file (BLAKE2b-512 prehash,
/// minisign's default, or the legacy raw form), whose trusted comment — covered by the global
/// signature — names the module's manifest id, version and the file's SHA-256:
/// `den-module id=<id> version=<version> sha256=<hex>`.
package enum ModuleSignature {
    /// What a valid signature vouches for.
    package struct Claim: Sendable, Equatable {
        package var keyID: String
        package var id: String
        package var version: String

        package init(keyID: String, id: String, version: String) {
            self.keyID = keyID
            self.id = id
            self.version = version
        }
    }

    package static let commentPrefix = "den-module"

    package static func trustedComment(id: String, version: String, sha256: [UInt8]) -> String {
        "\(commentPrefix) id=\(id) version=\(version) sha256=\(hex(sha256))"
    }

    /// The id, version and SHA-256 (hex) a trusted comment names; nil when it is not den's.
    package static func parseComment(_ comment: String) -> (id: String, version: String, sha256: String)? {
        let words = comment.split(separator: " ")
        guard words.first == Substring(commentPrefix) else { return nil }
        var fields: [String: String] = [:]
        for word in words.dropFirst() {
            guard let equals = word.firstIndex(of: "=") else { continue }
            fields[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        guard let id = fields["id"], let version = fields["version"], let sha = fields["sha256"], !id.isEmpty, !version.isEmpty else { return nil }
        return (id, version, sha.lowercased())
    }

    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return text
    }

    /// Checks `signature` over `file` with `publicKey`: the file signature, the global signature
    /// over the trusted comment, and the SHA-256 the comment names. The claim, or what is wrong.
    package static func verify(file: [UInt8], signature: Minisign.Signature, publicKey: Minisign.PublicKey,
                               crypto: SigningLibrary) throws(SigningLibrary.Unavailable) -> Result<Claim, Minisign.Problem> {
        if let problem = try MinisignVerifier.problem(with: file, signature: signature, publicKey: publicKey, crypto: crypto) {
            return .failure(problem)
        }
        guard let named = parseComment(signature.trustedComment) else {
            return .failure(Minisign.Problem("its trusted comment does not name the module (\"\(signature.trustedComment)\"); sign with den modules sign, or give minisign -t the comment `den modules sign --print-comment` prints"))
        }
        // The SHA-256 is the binding; the signature above already covers the bytes.
        let sha = hex(try crypto.sha256(file))
        guard sha == named.sha256 else {
            return .failure(Minisign.Problem("its trusted comment names SHA-256 \(named.sha256.prefix(16))…, the file's is \(sha.prefix(16))…"))
        }
        return .success(Claim(keyID: publicKey.keyIDText, id: named.id, version: named.version))
    }
}

extension SigningLibrary {
    /// SHA-256, from the same library as the rest.
    package func sha256(_ bytes: [UInt8]) throws(Unavailable) -> [UInt8] {
        do { return try CryptoLibrary.shared.sha256(bytes) } catch { throw Unavailable(description: error.message) }
    }
}

/// Checks a minisign signature of any bytes (a module file, a catalog index): made with this key,
/// over these bytes, and its trusted comment unchanged.
package enum MinisignVerifier {
    /// What is wrong with `signature` over `bytes`; nil when it holds.
    package static func problem(with bytes: [UInt8], signature: Minisign.Signature, publicKey: Minisign.PublicKey,
                                crypto: SigningLibrary) throws(SigningLibrary.Unavailable) -> Minisign.Problem? {
        guard signature.keyID == publicKey.keyID else {
            return Minisign.Problem("it was made with key \(signature.keyIDText), not \(publicKey.keyIDText)")
        }
        let message = signature.prehashed ? try crypto.blake2b(bytes, length: 64) : bytes
        guard try crypto.verify(publicKey: publicKey.key, message: message, signature: signature.signature) else {
            return Minisign.Problem("it is not a signature of this file (the file changed since it was signed, or the signature is another file's)")
        }
        guard try crypto.verify(publicKey: publicKey.key, message: signature.globalMessage, signature: signature.globalSignature) else {
            return Minisign.Problem("its trusted comment was changed after signing")
        }
        return nil
    }
}
