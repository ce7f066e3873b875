/// Which modules den runs, by who signed them (docs/SIGNING.md, "Policies").
public enum TrustPolicy: String, Sendable, CaseIterable {
    /// Only a module signed by a trusted key runs.
    case requireSignature = "require-signature"
    /// A module signed by a trusted key runs in-process; an unsigned one, or one signed by a key
    /// den does not know, runs isolated and sandboxed.
    case isolateUnsigned = "isolate-unsigned"
    /// Unsigned modules and unknown keys run in-process too.
    case allow

    /// Under every policy a signature that fails (a changed file, another file's signature, a
    /// manifest that is not the signed one) or a revoked key is refused: that is a module someone
    /// tampered with or a publisher withdrawn, never one merely unsigned.
    package func decide(_ state: SignatureState) -> TrustDecision {
        switch state {
        case .signed: return .inProcess
        case .invalid(let problem):
            return .refused(reason: "its signature does not hold: \(problem)",
                            fix: "sign the module again (den modules sign <file>) if you built it; otherwise get the file again from its publisher")
        case .revoked(let publisher, let keyID):
            return .refused(reason: "it is signed by \(publisher)'s key \(keyID), which you revoked",
                            fix: "get a version signed by a key you trust, or trust the key again with den keys trust")
        case .unsigned, .unknownKey:
            switch self {
            case .allow: return .inProcess
            case .isolateUnsigned: return .isolated(reason: state.refusalText)
            case .requireSignature:
                return .refused(reason: state.refusalText + ", and the trust policy is require-signature",
                                fix: state.fix)
            }
        }
    }
}

/// What a module's signature says, checked against the trust list and its manifest.
public enum SignatureState: Sendable, Equatable {
    /// No `<file>.minisig` beside the file.
    case unsigned
    /// A valid signature by a trusted key, over this very file, its id and version.
    case signed(publisher: String, keyID: String, id: String, version: String)
    /// Signed by a key that is not on the trust list (so the signature cannot be checked).
    case unknownKey(keyID: String)
    /// Signed by a key on the trust list that was revoked.
    case revoked(publisher: String, keyID: String)
    /// A signature that does not hold, and why.
    case invalid(String)

    /// One word for listings (`den plugins`, `plugins.list`).
    package var label: String {
        switch self {
        case .unsigned: "unsigned"
        case .signed: "signed"
        case .unknownKey: "unknown-key"
        case .revoked: "revoked"
        case .invalid: "invalid"
        }
    }

    /// Who signed it, as the trust list names them (nil: unsigned, or nobody den knows).
    package var publisher: String? {
        switch self {
        case .signed(let publisher, _, _, _), .revoked(let publisher, _): publisher
        default: nil
        }
    }

    /// The key that signed it, when den could read its id.
    package var keyID: String? {
        switch self {
        case .signed(_, let keyID, _, _), .revoked(_, let keyID), .unknownKey(let keyID): keyID
        default: nil
        }
    }

    /// A line for people: "signed by Acme (key 1A2B…)", "unsigned", …
    package var text: String {
        switch self {
        case .unsigned: "unsigned"
        case .signed(let publisher, let keyID, _, _): "signed by \(publisher) (key \(keyID))"
        case .unknownKey(let keyID): "signed by an unknown key \(keyID)"
        case .revoked(let publisher, let keyID): "signed by \(publisher)'s revoked key \(keyID)"
        case .invalid(let problem): "bad signature: \(problem)"
        }
    }

    fileprivate var refusalText: String {
        switch self {
        case .unknownKey(let keyID): "it is signed by key \(keyID), which is not on your trust list"
        default: "it is not signed (no .minisig file beside it)"
        }
    }

    fileprivate var fix: String {
        switch self {
        case .unknownKey: "if you trust its publisher, add their public key with den keys trust <key.pub>; or choose another policy with --trust-policy"
        default: "sign it with den modules sign <file> (or minisign), or choose another policy with --trust-policy (docs/SIGNING.md)"
        }
    }
}

/// Where a module may run, from its signature and the policy.
public enum TrustDecision: Sendable, Equatable {
    case inProcess
    /// It may run only isolated and sandboxed (issue 28's isolation): the reason it is untrusted.
    case isolated(reason: String)
    case refused(reason: String, fix: String)
}
