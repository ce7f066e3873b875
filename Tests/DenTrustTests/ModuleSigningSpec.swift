@testable import DenHost
import DenHotSwap
@testable import DenTrust
import DenTestSupport
import Foundation
import Synchronization
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
        let loader = PluginLoader(cache: cache, hub: ServiceHub(), hosting: HostingPolicy(), isolation: nil, trust: trust)
        // The first load stages a copy and caches its verdict.
        #expect(throws: Never.self) { try loader.load(fixture.about) }
        let copy = try cache.stage(fixture.about)
        // Someone rewrites the staged copy in place (its name, and the file den found, unchanged).
        try fixture.changeOneByte(copy)
        #expect(throws: PluginLoadError.self) { try PluginLoader(cache: cache, hub: ServiceHub(), hosting: HostingPolicy(), isolation: nil, trust: trust).load(fixture.about) }
    }

    @Test("a verdict is cached by the file's stamp: a second start reads neither the module nor its signature")
    func cachedByStamp() throws {
        let fixture = try SigningFixture()
        try fixture.sign()
        _ = fixture.runtime(.requireSignature, lazily: true)
        let index = SignatureIndex(directory: fixture.folder.temp.path("cache"))
        let fileStamp = try #require(SignatureIndex.Stamp(path: fixture.about.path))
        let signatureStamp = try #require(SignatureIndex.Stamp(path: fixture.signaturePath))
        #expect(index.claim(path: fixture.about.path, fileStamp: fileStamp, signatureStamp: signatureStamp)
            == ModuleSignature.Claim(keyID: fixture.key.publicKeyValue.keyIDText, id: "about", version: "1.0.0"))
        // Touching the file (a new change time) makes the entry stale.
        #expect(utimes(fixture.about.path, nil) == 0)
        let touched = try #require(SignatureIndex.Stamp(path: fixture.about.path))
        #expect(index.claim(path: fixture.about.path, fileStamp: touched, signatureStamp: signatureStamp) == nil)
    }

    /// What is done to the signature after a start cached About's verdict, and what the next start says.
    static let signatureChanges: [(String, @Sendable (SigningFixture) throws -> Void, String)] = [
        ("removed", { try FileManager.default.removeItem(atPath: $0.signaturePath) }, "not signed"),
        ("damaged", { try "untrusted comment: x\nnot base64\n".write(toFile: $0.signaturePath, atomically: true, encoding: .utf8) }, "is damaged"),
        ("re-signed for another version", { try $0.sign(claiming: "about", version: "9.9.9") }, "signed as about 9.9.9, but it is version 1.0.0"),
    ]

    @Test("a cached verdict holds only for the signature it was made from: one removed, damaged or replaced counts at the next start",
          arguments: signatureChanges.indices, [false, true])
    func cachedVerdictFollowsTheSignature(change: Int, lazily: Bool) throws {
        let (_, apply, because) = Self.signatureChanges[change]
        let fixture = try SigningFixture()
        try fixture.sign()
        #expect(fixture.aboutRuns(fixture.runtime(.requireSignature, lazily: lazily)).runs)
        try apply(fixture)
        let outcome = fixture.aboutRuns(fixture.runtime(.requireSignature, lazily: lazily))
        #expect(!outcome.runs)
        #expect(outcome.error?.contains(because) == true, "\(outcome.error ?? "")")
    }

    @Test("a cached verdict is judged under the policy of each start: a key taken off the trust list is unknown at once")
    func cachedVerdictFollowsTheTrustList() throws {
        let fixture = try SigningFixture()
        try fixture.sign()
        #expect(fixture.aboutRuns(fixture.runtime(.requireSignature, lazily: true)).runs)
        try "".write(to: fixture.ring.trustFile, atomically: true, encoding: .utf8)
        let refused = fixture.aboutRuns(fixture.runtime(.requireSignature, lazily: true))
        #expect(!refused.runs)
        #expect(refused.error?.contains("not on your trust list") == true, "\(refused.error ?? "")")
        // The same cached signature under allow runs (in-process, as an unknown key's module does).
        #expect(fixture.aboutRuns(fixture.runtime(.allow, lazily: true)).runs)
    }

    @Test("the signature cache is found by path in a file written in any order, and a damaged line only costs a check")
    func cacheFileInAnyOrder() throws {
        let fixture = try SigningFixture()
        try fixture.sign()
        _ = fixture.runtime(.requireSignature, lazily: true)
        let cacheFile = fixture.folder.temp.path("cache").appendingPathComponent(SignatureIndex.fileName)
        let written = try String(contentsOf: cacheFile, encoding: .utf8)
        let lines = written.split(separator: "\n").map(String.init)
        let fileStamp = try #require(SignatureIndex.Stamp(path: fixture.about.path))
        let signatureStamp = try #require(SignatureIndex.Stamp(path: fixture.signaturePath))
        let expected = ModuleSignature.Claim(keyID: fixture.key.publicKeyValue.keyIDText, id: "about", version: "1.0.0")
        // Other lines before and after, out of order, and a damaged one for another file.
        let aboutLine = try #require(lines.first { $0.hasPrefix(fixture.about.path + "\t") })
        let shuffled = ["/zz/libZModule.so\t1.2.3.4.5.6.7\t1.2.3.4.5.6.7\tAB\tz\t1.0.0", aboutLine,
                        "/aa/libAModule.so\tnot a stamp", "/aa/libBModule.so\t1.2.3.4.5.6.7\t1.2.3.4.5.6.7\tAB\tb\t1.0.0"]
        try (shuffled.joined(separator: "\n") + "\n").write(to: cacheFile, atomically: true, encoding: .utf8)
        #expect(SignatureIndex(directory: cacheFile.deletingLastPathComponent())
            .claim(path: fixture.about.path, fileStamp: fileStamp, signatureStamp: signatureStamp) == expected)
        // A damaged line for About is a miss, and the next start checks the file again and runs it.
        try (aboutLine.replacingOccurrences(of: "\t", with: " ") + "\n").write(to: cacheFile, atomically: true, encoding: .utf8)
        #expect(SignatureIndex(directory: cacheFile.deletingLastPathComponent())
            .claim(path: fixture.about.path, fileStamp: fileStamp, signatureStamp: signatureStamp) == nil)
        #expect(fixture.aboutRuns(fixture.runtime(.requireSignature, lazily: true)).runs)
        #expect(SignatureIndex(directory: cacheFile.deletingLastPathComponent())
            .claim(path: fixture.about.path, fileStamp: fileStamp, signatureStamp: signatureStamp) == expected)
        // The file and its staged copy, written sorted by path.
        let rewritten = try String(contentsOf: cacheFile, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(rewritten.count == 2, "\(rewritten)")
        #expect(rewritten == rewritten.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, "\(rewritten)")
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

/// `--watch` and signatures: a change to a `.minisig` judges the module again (docs/SIGNING.md,
/// "What is checked when"), through a real watcher on the plugin folder.
@Suite("A changed signature under --watch")
struct SignatureHotSwapSpec {
    /// The watcher's reports, as they come.
    final class Reports: Sendable {
        let reports = Mutex<[HotSwapReport]>([])

        func next(after count: Int, seconds: Double = 20) -> HotSwapReport? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let report = reports.withLock({ $0.count > count ? $0[count] : nil }) { return report }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return nil
        }
    }

    private func watch(_ runtime: DenRuntime, _ reports: Reports) throws -> PluginFolderWatch {
        let watch = PluginFolderWatch(runtime: runtime, options: .init(debounce: .milliseconds(50), pollInterval: .milliseconds(50))) { report in
            reports.reports.withLock { $0.append(report) }
        }
        try watch.start()
        return watch
    }

    @Test("isolate-unsigned: an unsigned module runs isolated; once signed by a trusted key it moves into den's process, then a bad signature is refused and it serves on")
    func signedLaterLeavesItsWorker() throws {
        let fixture = try SigningFixture()
        let runtime = fixture.runtime(.isolateUnsigned, lazily: false)
        #expect(fixture.aboutRuns(runtime).runs)
        #expect(runtime.record("libAboutModule.so")?.isolated != nil, "unsigned: isolated")
        let reports = Reports()
        let watch = try watch(runtime, reports)
        defer { watch.stop() }

        try fixture.sign()
        let signed = try #require(reports.next(after: 0), "a new signature is reported")
        #expect(signed.outcome == .swapped, "\(signed)")
        let record = try #require(runtime.record("libAboutModule.so"))
        #expect(record.isolated == nil, "signed by a trusted key: in-process")
        #expect(record.signature?.publisher == "Acme")
        #expect(record.generation == 2)
        #expect(runtime.makeSession().open("about").errors == [])

        // A signature for another version: refused, and the version loaded keeps serving.
        try fixture.sign(claiming: "about", version: "9.9.9")
        let bad = try #require(reports.next(after: 1), "a bad signature is reported")
        guard case .refused(let error) = bad.outcome else {
            Issue.record("not refused: \(bad)")
            return
        }
        #expect(error.description.contains("the old version keeps serving"), "\(error)")
        #expect(error.description.contains("its signature changed") && error.description.contains("signed as about 9.9.9"), "\(error)")
        #expect(error.description.contains("libAboutModule.so"), "names the file: \(error)")
        let after = try #require(runtime.record("libAboutModule.so"))
        #expect(after.isActive && after.generation == 2)
        #expect(after.swapError?.contains("signed as about 9.9.9") == true, "den plugins says why: \(after.swapError ?? "")")
        #expect(after.signature?.label == "invalid")
        #expect(runtime.makeSession().open("about").errors == [])
    }

    @Test("isolate-unsigned: a module re-signed by a key not on the trust list leaves den's process for a worker")
    func resignedByAStrangerMovesIntoAWorker() throws {
        let fixture = try SigningFixture()
        try fixture.sign()
        let runtime = fixture.runtime(.isolateUnsigned, lazily: false)
        #expect(fixture.aboutRuns(runtime).runs)
        #expect(runtime.record("libAboutModule.so")?.isolated == nil, "signed by a trusted key: in-process")
        let reports = Reports()
        let watch = try watch(runtime, reports)
        defer { watch.stop() }

        let stranger = KeyRing(configDirectory: try fixture.folder.temp.folder("stranger"))
        _ = try stranger.generate(name: "stranger", publisher: "Stranger")
        try ModuleSigner.sign(fixture.about, with: try stranger.secretKey("stranger"))
        let report = try #require(reports.next(after: 0))
        #expect(report.outcome == .swapped, "\(report)")
        let record = try #require(runtime.record("libAboutModule.so"))
        #expect(record.isolated != nil, "an unknown key's module runs only isolated")
        #expect(record.signature?.label == "unknown-key")
        #expect(runtime.makeSession().open("about").errors == [])
    }

    @Test("require-signature: a re-signed module serves on without a reload; a damaged signature is refused and it serves on", arguments: [false, true])
    func resignedUnderRequireSignature(lazily: Bool) throws {
        let fixture = try SigningFixture()
        try fixture.sign()
        let runtime = fixture.runtime(.requireSignature, lazily: lazily)
        #expect(fixture.aboutRuns(runtime).runs)
        let reports = Reports()
        let watch = try watch(runtime, reports)
        defer { watch.stop() }

        try FileManager.default.removeItem(atPath: fixture.signaturePath)
        try fixture.sign()
        let resigned = try #require(reports.next(after: 0))
        guard case .unchanged(let why) = resigned.outcome else {
            Issue.record("a valid new signature of the loaded file needs no reload: \(resigned)")
            return
        }
        #expect(why.contains("holds (signed by Acme (key \(fixture.key.publicKeyValue.keyIDText)))"), "\(why)")
        #expect(runtime.record("libAboutModule.so")?.generation == 1, "not reloaded")

        try "untrusted comment: x\nnot base64\n".write(toFile: fixture.signaturePath, atomically: true, encoding: .utf8)
        let damaged = try #require(reports.next(after: 1))
        #expect(damaged.error?.description.contains("is damaged") == true, "\(damaged)")
        #expect(damaged.error?.description.contains("the old version keeps serving") == true, "\(damaged)")
        #expect(runtime.record("libAboutModule.so")?.isActive == true)
        #expect(runtime.makeSession().open("about").errors == [])
    }

    @Test("require-signature: a module refused at start for want of a signature is installed once its signature arrives")
    func signatureArrives() throws {
        let fixture = try SigningFixture()
        let runtime = fixture.runtime(.requireSignature, lazily: true)
        #expect(!fixture.aboutRuns(runtime).runs)
        let reports = Reports()
        let watch = try watch(runtime, reports)
        defer { watch.stop() }
        try fixture.sign()
        let report = try #require(reports.next(after: 0))
        #expect(report.outcome == .installed, "\(report)")
        #expect(fixture.aboutRuns(runtime).runs)
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
