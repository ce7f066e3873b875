@testable import DenHost
import DenTestSupport
import Foundation
import Testing

/// Signed modules under each trust policy (docs/SIGNING.md): what runs and what is refused, at a
/// start that loads every module and at a lazy start, and the message a refusal carries.
@Suite("Module signatures under each trust policy")
struct ModuleSigningSpec {
    /// What happens to the module, by policy: runs, or is refused with a message containing `because`.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var prepare: @Sendable (SigningFixture) throws -> Void
        /// Policies under which About still runs.
        var runsUnder: Set<TrustPolicy>
        var because: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "signed by a trusted key", prepare: { try $0.sign() },
             runsUnder: [.requireSignature, .isolateUnsigned, .allow], because: ""),
        Case(name: "one byte of the file changed", prepare: { try $0.sign(); try $0.changeOneByte($0.about) },
             runsUnder: [], because: "not a signature of this file"),
        Case(name: "another file's signature", prepare: { fixture in
            let other = try fixture.folder.add("MainModule", as: "other.so.tmp")
            try fixture.sign(other)
            try FileManager.default.moveItem(atPath: ModuleTrust.signaturePath(of: other.path), toPath: fixture.signaturePath)
            try FileManager.default.removeItem(at: other)
        }, runsUnder: [], because: "not a signature of this file"),
        Case(name: "a revoked key", prepare: { try $0.sign(); _ = try $0.ring.revoke("Acme") },
             runsUnder: [], because: "which you revoked"),
        Case(name: "an unknown key", prepare: { fixture in
            let stranger = KeyRing(configDirectory: try fixture.folder.temp.folder("stranger"))
            _ = try stranger.generate(name: "stranger", publisher: "Stranger")
            try ModuleSigner.sign(fixture.about, with: try stranger.secretKey("stranger"))
        }, runsUnder: [.allow, .isolateUnsigned], because: "not on your trust list"),
        Case(name: "a manifest id that differs from the signed one", prepare: { try $0.sign(claiming: "main", version: "1.0.0") },
             runsUnder: [], because: "signed as module 'main', but it is module 'about'"),
        Case(name: "a manifest version that differs from the signed one", prepare: { try $0.sign(claiming: "about", version: "9.9.9") },
             runsUnder: [], because: "signed as about 9.9.9, but it is version 1.0.0"),
        Case(name: "a missing signature", prepare: { _ in }, runsUnder: [.allow, .isolateUnsigned], because: "not signed"),
        Case(name: "a damaged signature file", prepare: { try $0.sign(); try "untrusted comment: x\nnot base64\n".write(toFile: $0.signaturePath, atomically: true, encoding: .utf8) },
             runsUnder: [], because: "is damaged"),
    ]

    @Test("a start that loads every module", arguments: cases, TrustPolicy.allCases)
    func eager(_ example: Case, policy: TrustPolicy) throws {
        let fixture = try SigningFixture()
        try example.prepare(fixture)
        try check(example, policy: policy, fixture.runtime(policy, lazily: false), fixture)
    }

    @Test("a lazy start, and again from the signature cache", arguments: cases, TrustPolicy.allCases)
    func lazy(_ example: Case, policy: TrustPolicy) throws {
        let fixture = try SigningFixture()
        try example.prepare(fixture)
        try check(example, policy: policy, fixture.runtime(policy, lazily: true), fixture)
        // The second start answers from the signature cache: the same verdict.
        try check(example, policy: policy, fixture.runtime(policy, lazily: true), fixture)
    }

    private func check(_ example: Case, policy: TrustPolicy, _ runtime: DenRuntime, _ fixture: SigningFixture) throws {
        let outcome = fixture.aboutRuns(runtime)
        if example.runsUnder.contains(policy) {
            #expect(outcome.runs, "\(example.name) under \(policy.rawValue): \(outcome.error ?? "")")
            // isolate-unsigned never runs an untrusted module in den's own process.
            let untrusted = example.because.contains("not signed") || example.because.contains("trust list")
            let isolated = runtime.record("libAboutModule.so")?.isolated != nil
            #expect(isolated == (policy == .isolateUnsigned && untrusted), "\(example.name) under \(policy.rawValue): isolated \(isolated)")
        } else {
            #expect(!outcome.runs, "\(example.name) must not run under \(policy.rawValue)")
            let error = try #require(outcome.error)
            #expect(error.contains(example.because), "\(error)")
            #expect(error.contains("libAboutModule.so"), "the message names the file: \(error)")
        }
    }

    @Test("isolate-unsigned with workers unsandboxed refuses an untrusted module rather than run it unsandboxed", arguments: [false, true])
    func isolateUnsignedNeedsTheSandbox(lazily: Bool) throws {
        let fixture = try SigningFixture()
        let outcome = fixture.aboutRuns(fixture.runtime(.isolateUnsigned, lazily: lazily, sandbox: false))
        #expect(!outcome.runs)
        #expect(outcome.error?.contains("without their sandbox (--no-sandbox)") == true, "\(outcome.error ?? "")")
    }

    @Test("the policy decides from the signature's state; a failing or revoked signature is refused under every policy")
    func decisions() {
        let signed = SignatureState.signed(publisher: "Acme", keyID: "00", id: "about", version: "1")
        for policy in TrustPolicy.allCases {
            #expect(policy.decide(signed) == .inProcess)
            if case .refused = policy.decide(.invalid("x")) {} else { Issue.record("\(policy) ran an invalid signature") }
            if case .refused = policy.decide(.revoked(publisher: "Acme", keyID: "00")) {} else { Issue.record("\(policy) ran a revoked key") }
        }
        #expect(TrustPolicy.allow.decide(.unsigned) == .inProcess)
        #expect(TrustPolicy.allow.decide(.unknownKey(keyID: "00")) == .inProcess)
        if case .isolated = TrustPolicy.isolateUnsigned.decide(.unsigned) {} else { Issue.record("isolate-unsigned must isolate an unsigned module") }
        if case .isolated = TrustPolicy.isolateUnsigned.decide(.unknownKey(keyID: "00")) {} else { Issue.record("isolate-unsigned must isolate an unknown key") }
        if case .refused = TrustPolicy.requireSignature.decide(.unsigned) {} else { Issue.record("require-signature ran an unsigned module") }
    }

    @Test("the file replaced between the lazy start's check and its load never runs", arguments: TrustPolicy.allCases)
    func replacedAfterCheck(policy: TrustPolicy) throws {
        let fixture = try SigningFixture()
        try fixture.sign()
        let runtime = fixture.runtime(policy, lazily: true)
        #expect(runtime.record("libAboutModule.so")?.isActive == true, "checked at start: signed")
        #expect(runtime.record("libAboutModule.so")?.signature?.publisher == "Acme")
        // Replaced by another build (a new inode) before the first use loads it.
        let replacement = fixture.folder.plugins.appendingPathComponent(".about.tmp")
        try FileManager.default.copyItem(at: fixture.about, to: replacement)
        try fixture.changeOneByte(replacement)
        #expect(rename(replacement.path, fixture.about.path) == 0)
        let outcome = fixture.aboutRuns(runtime)
        #expect(!outcome.runs)
        #expect(outcome.error?.contains("not a signature of this file") == true, "\(outcome.error ?? "")")
    }

    @Test("a staged copy changed after staging is checked as the copy, not as the file den found", arguments: TrustPolicy.allCases)
    func copyChangedAfterStaging(policy: TrustPolicy) throws {
        let fixture = try SigningFixture()
        try fixture.sign()
        let trust = fixture.trust(policy)
        let cache = PluginCache(directory: fixture.folder.temp.path("cache"))
        let loader = PluginLoader(cache: cache, hub: ServiceHub(), trust: trust)
        // The first load stages a copy and caches its verdict.
        #expect(throws: Never.self) { try loader.load(fixture.about) }
        let copy = try cache.stage(fixture.about)
        // Someone rewrites the staged copy in place (its name, and the file den found, unchanged).
        try fixture.changeOneByte(copy)
        #expect(throws: PluginLoadError.self) { try PluginLoader(cache: cache, hub: ServiceHub(), trust: trust).load(fixture.about) }
    }

    @Test("a verdict is cached by the file's stamp: a second start reads neither the module nor its signature")
    func cachedByStamp() throws {
        let fixture = try SigningFixture()
        try fixture.sign()
        _ = fixture.runtime(.requireSignature, lazily: true)
        let index = SignatureIndex(directory: fixture.folder.temp.path("cache"))
        let fileStamp = try #require(SignatureIndex.stamp(fixture.about.path))
        let signatureStamp = try #require(SignatureIndex.stamp(fixture.signaturePath))
        #expect(index.claim(path: fixture.about.path, fileStamp: fileStamp, signatureStamp: signatureStamp)
            == ModuleSignature.Claim(keyID: fixture.key.publicKeyValue.keyIDText, id: "about", version: "1.0.0"))
        // Touching the file (a new change time) makes the entry stale.
        #expect(utimes(fixture.about.path, nil) == 0)
        let touched = try #require(SignatureIndex.stamp(fixture.about.path))
        #expect(index.claim(path: fixture.about.path, fileStamp: touched, signatureStamp: signatureStamp) == nil)
    }

    @Test("a key revoked after a verdict was cached counts at the next start")
    func revocationBeatsTheCache() throws {
        let fixture = try SigningFixture()
        try fixture.sign()
        #expect(fixture.aboutRuns(fixture.runtime(.requireSignature, lazily: true)).runs)
        _ = try fixture.ring.revoke("Acme")
        let outcome = fixture.aboutRuns(fixture.runtime(.requireSignature, lazily: true))
        #expect(!outcome.runs)
        #expect(outcome.error?.contains("which you revoked") == true, "\(outcome.error ?? "")")
    }

    @Test("hot swap refuses a new file whose signature does not match it, and the old version keeps serving",
          arguments: TrustPolicy.allCases)
    func hotSwapRefusesBadSignature(policy: TrustPolicy) throws {
        let fixture = try SigningFixture()
        try fixture.sign()
        let runtime = fixture.runtime(policy, lazily: false)
        let swapper = HotSwapper(runtime: runtime)
        let session = runtime.makeSession()
        #expect(session.open("about").errors == [])
        let replacement = fixture.folder.plugins.appendingPathComponent(".about.tmp")
        try FileManager.default.copyItem(at: fixture.about, to: replacement)
        try fixture.changeOneByte(replacement)
        #expect(rename(replacement.path, fixture.about.path) == 0)
        let report = swapper.swap(fixture.about)
        guard case .refused(let error) = report.outcome else {
            Issue.record("the swap was not refused: \(report)")
            return
        }
        #expect(error.description.contains("not a signature of this file"), "\(error)")
        #expect(runtime.record("libAboutModule.so")?.isActive == true)
        #expect(runtime.record("libAboutModule.so")?.generation == 1, "the old version keeps serving")
        #expect(runtime.makeSession().open("about").errors == [])
    }
}

@Suite("plugins.list and About show the publisher")
struct PluginsListSignatureSpec {
    @Test("a signed module's entry names its publisher and state, and About's page shows them")
    func listed() throws {
        let fixture = try SigningFixture()
        try fixture.sign()
        let runtime = fixture.runtime(.requireSignature, lazily: true)
        let entry = try #require(runtime.record("libAboutModule.so")?.summaryDocument)
        #expect(entry.publisher == "Acme" && entry.signature == "signed", "\(entry)")
        let view = runtime.makeSession().open("about")
        let details = view.screen.elements.flatMap { element -> [String] in
            if case .list(let list) = element { list.items.compactMap(\.detail) } else { [] }
        }
        #expect(details.contains { $0.hasSuffix("· signed by Acme") }, "\(details)")
    }
}
