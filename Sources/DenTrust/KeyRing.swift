import DenHost
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The user's signing keys and trust list, as `den keys` and `den modules sign` use them:
/// `<config>/keys/<name>.key` (minisign's unencrypted secret key format, mode 0600, in a 0700
/// folder), `<name>.pub` beside it, and `<config>/trusted-keys` (TrustStore).
package struct KeyRing: Sendable {
    package let configDirectory: URL
    private let crypto: SigningLibrary

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    package init(configDirectory: URL, crypto: SigningLibrary = .shared) {
        self.configDirectory = configDirectory
        self.crypto = crypto
    }

    package var keysDirectory: URL { configDirectory.appendingPathComponent("keys", isDirectory: true) }
    package var trustFile: URL { TrustStore.userFile(configDirectory: configDirectory) }

    package func secretKeyFile(_ name: String) -> URL { keysDirectory.appendingPathComponent("\(name).key") }
    package func publicKeyFile(_ name: String) -> URL { keysDirectory.appendingPathComponent("\(name).pub") }

    /// A key name becomes a file name: letters, digits, `-`, `_`, `.`, not starting with a dot.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
    }

    /// Makes a new key pair and trusts it as `publisher`; the public key.
    package func generate(name: String, publisher: String, replacing: Bool = false) throws(Failure) -> Minisign.PublicKey {
        guard Self.isValidName(name) else { throw Failure("'\(name)' is not a key name; use letters, digits, '-', '_' or '.'") }
        let secretFile = secretKeyFile(name)
        if !replacing, FileManager.default.fileExists(atPath: secretFile.path) {
            throw Failure("\(secretFile.path) already exists; choose another name, or pass --force to replace it (modules signed with it then no longer verify once you revoke it)")
        }
        let key: Minisign.SecretKey
        do {
            let pair = try crypto.generateKey()
            key = Minisign.SecretKey(keyID: try crypto.random(8), seed: pair.seed, publicKey: pair.publicKey)
        } catch { throw Failure("cannot make a key: \(error)") }
        guard let text = key.fileText(blake2b: { try? crypto.blake2b($0, length: $1) }) else { throw Failure("cannot write the key (BLAKE2b failed)") }
        do {
            try FileManager.default.createDirectory(at: keysDirectory, withIntermediateDirectories: true)
            chmod(keysDirectory.path, 0o700)
            try TrustStore.write(text, to: secretFile, mode: 0o600)
            try TrustStore.write(key.publicKeyValue.fileText, to: publicKeyFile(name))
        } catch { throw Failure("cannot write \(secretFile.path): \(error); make \(configDirectory.path) writable, or set DEN_CONFIG_DIR") }
        try trust(key.publicKeyValue, as: publisher)
        return key.publicKeyValue
    }

    /// A secret key by name (in the keys folder) or path, in minisign's unencrypted format.
    package func secretKey(_ nameOrPath: String) throws(Failure) -> Minisign.SecretKey {
        let file = nameOrPath.contains("/") || nameOrPath.hasSuffix(".key") ? URL(fileURLWithPath: nameOrPath) : secretKeyFile(nameOrPath)
        guard let bytes = FileBytes.read(atPath: file.filePath, limit: 64 << 10) else {
            throw Failure("cannot read the secret key \(file.path); make one with `den keys generate`, or name one with --key")
        }
        do {
            return try Minisign.SecretKey(text: String(decoding: bytes, as: UTF8.self), blake2b: { try? crypto.blake2b($0, length: $1) })
        } catch { throw Failure("\(file.path): \(error)") }
    }

    package func trustStore() -> TrustStore { TrustStore.load([trustFile]) }

    /// Adds `key` to the user's trust list as `publisher` (replacing an entry of the same id).
    package func trust(_ key: Minisign.PublicKey, as publisher: String) throws(Failure) {
        let name = publisher.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !name.isEmpty, !name.contains("\t") else { throw Failure("give the publisher a name (--as \"Acme Inc\")") }
        var store = trustStore()
        store.entries.removeAll { $0.keyID == key.keyIDText }
        store.entries.append(TrustStore.Entry(revoked: false, keyID: key.keyIDText, key: key, publisher: name))
        try save(store)
    }

    /// Marks the key with this id, or of this publisher, revoked; the entry revoked.
    package func revoke(_ keyIDOrPublisher: String) throws(Failure) -> TrustStore.Entry {
        var store = trustStore()
        let wanted = keyIDOrPublisher.uppercased()
        var matches = store.entries.indices.filter { store.entries[$0].keyID == wanted || store.entries[$0].publisher == keyIDOrPublisher }
        if matches.isEmpty {
            // A key only the install trusts, or one never seen: revoked by its id all the same.
            guard wanted.count == 16, wanted.allSatisfy({ $0.isHexDigit }) else {
                throw Failure("no key '\(keyIDOrPublisher)' on your trust list (\(trustFile.path)); `den keys list` shows the ids and publishers")
            }
            let known = TrustStore.load(TrustPolicySetting.trustFiles(environment: ProcessEnvironment.hostVariables())).entry(for: wanted)
            store.entries.append(TrustStore.Entry(revoked: true, keyID: wanted, key: known?.key, publisher: known?.publisher ?? wanted))
            matches = [store.entries.count - 1]
        }
        guard matches.count == 1 else {
            throw Failure("'\(keyIDOrPublisher)' names \(matches.count) keys; revoke one by its id (`den keys list`)")
        }
        store.entries[matches[0]].revoked = true
        try save(store)
        return store.entries[matches[0]]
    }

    private func save(_ store: TrustStore) throws(Failure) {
        do { try TrustStore.write(store.text, to: trustFile) } catch {
            throw Failure("cannot write \(trustFile.path): \(error); make \(configDirectory.path) writable, or set DEN_CONFIG_DIR")
        }
    }
}

/// `den modules sign`: a minisign signature of a module file whose trusted comment names its
/// manifest id, version and SHA-256 (ModuleSignature), written to `<file>.minisig`.
package enum ModuleSigner {
    /// The trusted comment for `file`, from its manifest.
    package static func comment(for file: URL, crypto: SigningLibrary = .shared) throws(KeyRing.Failure) -> String {
        let inspection: ModuleFileInspection
        do { inspection = try ModuleFileInspection.inspect(file) } catch { throw KeyRing.Failure("\(error)") }
        guard let manifest = inspection.manifest else {
            throw KeyRing.Failure("\(file.path) has no manifest (`den_manifest`)\(inspection.manifestProblem.map { ": \($0)" } ?? ""); den signs a module's id and version from its manifest, so add one (module.json; docs/ABI.md, \"The manifest\") and rebuild it")
        }
        guard let bytes = FileBytes.read(atPath: file.filePath, limit: 1 << 30) else { throw KeyRing.Failure("cannot read \(file.path)") }
        do {
            return ModuleSignature.trustedComment(id: manifest.id, version: manifest.version, sha256: try crypto.sha256(bytes))
        } catch { throw KeyRing.Failure("\(error)") }
    }

    /// Signs `file` with `key` (prehashed, minisign's default) and writes `<file>.minisig`.
    @discardableResult
    package static func sign(_ file: URL, with key: Minisign.SecretKey, crypto: SigningLibrary = .shared) throws(KeyRing.Failure) -> Minisign.Signature {
        let comment = try comment(for: file, crypto: crypto)
        guard let bytes = FileBytes.read(atPath: file.filePath, limit: 1 << 30) else { throw KeyRing.Failure("cannot read \(file.path)") }
        let signature = try MinisignSigner.sign(bytes, comment: comment, with: key, crypto: crypto)
        let target = URL(fileURLWithPath: ModuleTrust.signaturePath(of: file.filePath))
        do { try TrustStore.write(signature.fileText, to: target) } catch {
            throw KeyRing.Failure("cannot write \(target.path): \(error); the signature goes beside the module file")
        }
        return signature
    }
}

/// A minisign signature of any bytes (prehashed, minisign's default): a module file's, a
/// catalog index's (docs/CATALOG.md).
package enum MinisignSigner {
    package static func sign(_ bytes: [UInt8], comment: String, with key: Minisign.SecretKey,
                             crypto: SigningLibrary = .shared) throws(KeyRing.Failure) -> Minisign.Signature {
        do {
            let main = try crypto.sign(seed: key.seed, message: try crypto.blake2b(bytes, length: 64))
            let global = try crypto.sign(seed: key.seed, message: main + Array(comment.utf8))
            return Minisign.Signature(prehashed: true, keyID: key.keyID, signature: main, trustedComment: comment,
                                      globalSignature: global, untrustedComment: "signature from den secret key \(key.publicKeyValue.keyIDText)")
        } catch { throw KeyRing.Failure("cannot sign: \(error)") }
    }
}
