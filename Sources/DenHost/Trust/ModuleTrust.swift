import DenSupport
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Applies the trust policy to what a module's signature says: the loader asks it about the
/// staged copy it is about to `dlopen`, and a lazy start about each file it installs from its
/// manifest (docs/SIGNING.md). Reading and verifying signatures is `SignatureChecking`'s
/// (DenTrust: minisign, keys, the trust list), so the runtime carries no cryptography.
public final class ModuleTrust: Sendable {
    package let policy: TrustPolicy
    /// Whether this den can run a module isolated and sandboxed (issue 28). Until it can, a
    /// module the policy sends there is refused, never run in-process.
    package let isolationAvailable: Bool
    /// What reads and verifies signatures (DenTrust's `SignatureVerifier`).
    package let signatures: any SignatureChecking

    package init(policy: TrustPolicy, signatures: any SignatureChecking, isolationAvailable: Bool = false) {
        self.policy = policy
        self.signatures = signatures
        self.isolationAvailable = isolationAvailable
    }

    package static func signaturePath(of filePath: String) -> String { filePath + ".minisig" }

    /// What the signature of `filePath` (`<filePath>.minisig`) says about the bytes at
    /// `checkedPath` (the file itself, or the staged copy den will load), held to the manifest's
    /// `id` and `version` when given; `stamp` is the checked file's when the caller just took it.
    package func state(checking checkedPath: String, signedAs filePath: String, id: String?, version: String?,
                       stamp: FileStamp? = nil) -> SignatureState {
        signatures.state(checking: checkedPath, signatureAt: Self.signaturePath(of: filePath), id: id, version: version, stamp: stamp)
    }

    /// Why a valid signature of `signedID` `signedVersion` does not cover module `id` `version`.
    package static func mismatch(signedID: String, signedVersion: String, id: String?, version: String?) -> String? {
        if let id, signedID != id { return "it was signed as module '\(signedID)', but it is module '\(id)'" }
        if let version, signedVersion != version { return "it was signed as \(signedID) \(signedVersion), but it is version \(version)" }
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


/// Reads and verifies module signatures (DenTrust's `SignatureVerifier`): the state of a file's
/// signature against the trust list, held to the manifest's id and version.
package protocol SignatureChecking: Sendable {
    func state(checking checkedPath: String, signatureAt signaturePath: String, id: String?, version: String?, stamp: FileStamp?) -> SignatureState
    /// Holds verdicts checked anew in memory until `release`, which saves them once (a start).
    func hold()
    func release()
}
