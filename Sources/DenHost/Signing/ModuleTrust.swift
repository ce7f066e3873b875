import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Checks module signatures against the trust list and applies the trust policy: the loader asks
/// it about the staged copy it is about to `dlopen`, and a lazy start about each file it installs
/// from its manifest (docs/SIGNING.md). The signature is `<file>.minisig` beside the module file.
public final class ModuleTrust: Sendable {
    package let policy: TrustPolicy
    /// Whether this den can run a module isolated and sandboxed (issue 28). Until it can, a
    /// module the policy sends there is refused, never run in-process.
    package let isolationAvailable: Bool
    private let trustFiles: [URL]
    private let store = Mutex<TrustStore?>(nil)
    let index: SignatureIndex
    private let crypto: SigningLibrary

    package init(policy: TrustPolicy, trustFiles: [URL], cacheDirectory: URL, crypto: SigningLibrary = .shared,
                 isolationAvailable: Bool = false) {
        self.policy = policy
        self.trustFiles = trustFiles
        self.index = SignatureIndex(directory: cacheDirectory)
        self.crypto = crypto
        self.isolationAvailable = isolationAvailable
    }

    package static func signaturePath(of filePath: String) -> String { filePath + ".minisig" }

    /// The trust list, read on first use (a start without signatures never reads it).
    package var trustStore: TrustStore {
        store.withLock { store in
            if let store { return store }
            let loaded = TrustStore.load(trustFiles)
            store = loaded
            return loaded
        }
    }

    /// What the signature of `filePath` (`<filePath>.minisig`) says about the bytes at
    /// `checkedPath` (the file itself, or the staged copy den will load), held to the manifest's
    /// `id` and `version` when given. `stamp` is the checked file's, when the caller has just
    /// `stat`ed it (a start has, for every module file): a cached verdict then costs one `stat`,
    /// the signature's.
    package func state(checking checkedPath: String, signedAs filePath: String, id: String?, version: String?) -> SignatureState {
        state(checking: checkedPath, signedAs: filePath, id: id, version: version, stamp: nil)
    }

    func state(checking checkedPath: String, signedAs filePath: String, id: String?, version: String?, stamp: FileStamp?) -> SignatureState {
        let signaturePath = Self.signaturePath(of: filePath)
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
        if let problem = Self.mismatch(claim, id: id, version: version) { return .invalid(problem) }
        return .signed(publisher: entry.publisher, keyID: claim.keyID, id: claim.id, version: claim.version)
    }

    static func mismatch(_ claim: ModuleSignature.Claim, id: String?, version: String?) -> String? {
        if let id, claim.id != id { return "it was signed as module '\(claim.id)', but it is module '\(id)'" }
        if let version, claim.version != version { return "it was signed as \(claim.id) \(claim.version), but it is version \(version)" }
        return nil
    }

    /// What `den plugins --inspect` says of a file's signature: its state, and what the policy
    /// in force does with it.
    package func inspection(of filePath: String, id: String?, version: String?) -> SignatureInspection {
        let state = state(checking: filePath, signedAs: filePath, id: id, version: version)
        var inspection = SignatureInspection(state: state.label, publisher: state.publisher, keyID: state.keyID, text: state.text,
                                             policy: policy.rawValue, decision: "in-process")
        switch decide(state) {
        case .inProcess: break
        case .isolated(let reason):
            inspection.decision = "isolated"
            inspection.reason = reason
        case .refused(let reason, let fix):
            inspection.decision = "refused"
            inspection.reason = reason
            inspection.fix = fix
        }
        return inspection
    }

    /// Where the module may run: the policy's decision, with the isolation seam.
    package func decide(_ state: SignatureState) -> TrustDecision { policy.decide(state) }

    /// Nil when a module in `state` may run: in this process, or (isolate-unsigned) in a
    /// sandboxed worker when `sandboxedWorkers` says this den can start one; else the error that
    /// refuses it (docs/SIGNING.md, "isolate-unsigned").
    package func refusal(_ state: SignatureState, file: String, moduleID: String?, sandboxedWorkers: Bool) -> PluginLoadError? {
        switch decide(state) {
        case .inProcess: return nil
        case .isolated(let reason):
            if sandboxedWorkers { return nil }
            return PluginLoadError(file: file, cause: .untrusted(
                reason: "\(reason); the trust policy isolate-unsigned runs such a module only isolated and sandboxed, and this den runs workers without their sandbox (--no-sandbox)",
                fix: "drop --no-sandbox, sign it or trust its publisher's key (den keys trust), or run it in-process with --trust-policy allow if you trust it"),
                moduleID: moduleID)
        case .refused(let reason, let fix):
            return PluginLoadError(file: file, cause: .untrusted(reason: reason, fix: fix), moduleID: moduleID)
        }
    }
}

/// A module file's signature as `den plugins --inspect` reports it (text and JSON).
package struct SignatureInspection: Sendable, Encodable, Equatable {
    /// `SignatureState.label`: signed, unsigned, unknown-key, revoked or invalid.
    package var state: String
    package var publisher: String?
    package var keyID: String?
    /// "signed by Acme (key …)", "bad signature: …"
    package var text: String
    /// The trust policy in force, and what it does with the file: in-process, isolated or refused.
    package var policy: String
    package var decision: String
    package var reason: String?
    package var fix: String?
}
