import DenHost
import DenSupport
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Reads a module's `<file>.minisig`, verifies it against the trust list (minisign, Ed25519 over
/// BLAKE2b, libDenCrypto.so) and holds it to the manifest's id and version; verdicts are cached
/// by file and signature stamps (`SignatureIndex`), so a start re-checks only what changed.
package final class SignatureVerifier: SignatureChecking {
    private let trustFiles: [URL]
    private let store = Mutex<TrustStore?>(nil)
    let index: SignatureIndex
    private let crypto: SigningLibrary

    package init(trustFiles: [URL], cacheDirectory: URL, crypto: SigningLibrary = .shared) {
        self.trustFiles = trustFiles
        self.index = SignatureIndex(directory: cacheDirectory)
        self.crypto = crypto
    }

    /// The trust list, read on first use (a start without signatures never reads it).
    package var trustStore: TrustStore {
        store.withLock { store in
            if let store { return store }
            let loaded = TrustStore.load(trustFiles)
            store = loaded
            return loaded
        }
    }

    package func hold() { index.hold() }
    package func release() { index.release() }

    package func state(checking checkedPath: String, signatureAt signaturePath: String, id: String?, version: String?,
                       stamp: FileStamp?) -> SignatureState {
        guard let signatureStamp = SignatureIndex.Stamp(path: signaturePath) else {
            return errno == ENOENT || errno == ENOTDIR ? .unsigned
                : .invalid("its signature file \(signaturePath) cannot be read (\(String(cString: strerror(errno))))")
        }
        guard let fileStamp = stamp.map({ SignatureIndex.Stamp($0) }) ?? SignatureIndex.Stamp(path: checkedPath) else {
            return .invalid("the file cannot be read")
        }
        let store = trustStore
        if let claim = index.claim(path: checkedPath, fileStamp: fileStamp, signatureStamp: signatureStamp) {
            return judge(claim, store: store, id: id, version: version)
        }
        guard let signatureBytes = FileBytes.read(atPath: signaturePath, limit: 64 << 10) else {
            return .invalid("its signature file \(signaturePath) cannot be read")
        }
        let signature: Minisign.Signature
        do { signature = try Minisign.Signature(text: String(decoding: signatureBytes, as: UTF8.self)) } catch {
            return .invalid("its signature file \(signaturePath.split(separator: "/").last ?? "") is damaged: \(error)")
        }
        guard let entry = store.entry(for: signature.keyIDText) else { return .unknownKey(keyID: signature.keyIDText) }
        if entry.revoked { return .revoked(publisher: entry.publisher, keyID: entry.keyID) }
        guard let key = entry.key else { return .unknownKey(keyID: signature.keyIDText) }
        guard let bytes = FileBytes.read(atPath: checkedPath, limit: 1 << 30) else { return .invalid("the file cannot be read") }
        // A file replaced while it was read is judged by neither version.
        guard SignatureIndex.Stamp(path: checkedPath) == fileStamp else {
            return .invalid("the file changed while den checked it; try again once it is written")
        }
        do {
            switch try ModuleSignature.verify(file: bytes, signature: signature, publicKey: key, crypto: crypto) {
            case .failure(let problem): return .invalid(problem.description)
            case .success(let claim):
                index.record(path: checkedPath, fileStamp: fileStamp, signatureStamp: signatureStamp, claim: claim)
                return judge(claim, store: store, id: id, version: version)
            }
        } catch {
            return .invalid("den cannot check signatures: \(error)")
        }
    }

    /// A valid signature's claim, against today's trust list and the module's manifest.
    private func judge(_ claim: ModuleSignature.Claim, store: TrustStore, id: String?, version: String?) -> SignatureState {
        guard let entry = store.entry(for: claim.keyID), entry.key != nil else { return .unknownKey(keyID: claim.keyID) }
        if entry.revoked { return .revoked(publisher: entry.publisher, keyID: entry.keyID) }
        if let problem = ModuleTrust.mismatch(signedID: claim.id, signedVersion: claim.version, id: id, version: version) { return .invalid(problem) }
        return .signed(publisher: entry.publisher, keyID: claim.keyID, id: claim.id, version: claim.version)
    }
}

extension ModuleTrust {
    /// The trust policy over signatures verified by `SignatureVerifier`: what den's commands use.
    package convenience init(policy: TrustPolicy, trustFiles: [URL], cacheDirectory: URL, crypto: SigningLibrary = .shared,
                             isolationAvailable: Bool = false) {
        self.init(policy: policy, signatures: SignatureVerifier(trustFiles: trustFiles, cacheDirectory: cacheDirectory, crypto: crypto),
                  isolationAvailable: isolationAvailable)
    }

    /// The verifier's trust list (`den keys list` and the install check read it).
    package var trustStore: TrustStore {
        (signatures as? SignatureVerifier)?.trustStore ?? TrustStore.load([])
    }
}
