@testable import DenHost
@testable import DenTrust
import DenTestSupport
import Foundation
import Testing

/// den reads what Debian's `minisign` writes and the reverse (Scripts/setup.sh installs it).
@Suite("minisign compatibility")
struct MinisignCompatibilitySpec {
    static let minisign = URL(fileURLWithPath: "/usr/bin/minisign")

    private func run(_ arguments: [String]) throws -> ProcessResult {
        guard FileManager.default.isExecutableFile(atPath: Self.minisign.path) else {
            throw MinisignMissing()
        }
        return try ProcessRunner.run(Self.minisign, arguments, input: "")
    }

    /// A key pair made by minisign without a password, trusted in den as "Tool".
    private func minisignKey(_ fixture: SigningFixture) throws -> (secret: URL, public: URL) {
        let secret = fixture.folder.temp.path("tool.key"), pub = fixture.folder.temp.path("tool.pub")
        let made = try run(["-G", "-W", "-s", secret.path, "-p", pub.path])
        #expect(made.status == 0, "\(made.stderr)")
        try fixture.ring.trust(try Minisign.PublicKey(text: String(contentsOf: pub, encoding: .utf8)), as: "Tool")
        return (secret, pub)
    }

    @Test("a module signed by minisign (its default prehashed form, and the legacy one) verifies in den", arguments: [false, true])
    func minisignSignsDenVerifies(legacy: Bool) throws {
        let fixture = try SigningFixture()
        let key = try minisignKey(fixture)
        let comment = try ModuleSigner.comment(for: fixture.about)
        let signed = try run(["-S"] + (legacy ? ["-l"] : []) + ["-s", key.secret.path, "-t", comment, "-m", fixture.about.path])
        #expect(signed.status == 0, "\(signed.stderr)")
        let state = fixture.trust(.requireSignature).state(checking: fixture.about.path, signedAs: fixture.about.path, id: "about", version: "1.0.0")
        guard case .signed(let publisher, _, "about", "1.0.0") = state else {
            Issue.record("minisign's signature did not verify: \(state)")
            return
        }
        #expect(publisher == "Tool")
        #expect(fixture.aboutRuns(fixture.runtime(.requireSignature, lazily: false)).runs)
    }

    @Test("minisign's own trusted comment, which names no module, is refused with what to do")
    func minisignWithoutDenComment() throws {
        let fixture = try SigningFixture()
        let key = try minisignKey(fixture)
        #expect(try run(["-S", "-s", key.secret.path, "-m", fixture.about.path]).status == 0)
        let state = fixture.trust(.allow).state(checking: fixture.about.path, signedAs: fixture.about.path, id: "about", version: "1.0.0")
        guard case .invalid(let problem) = state else {
            Issue.record("a signature naming no module was taken: \(state)")
            return
        }
        #expect(problem.contains("does not name the module") && problem.contains("--print-comment"), "\(problem)")
    }

    @Test("a module signed by den verifies with minisign, and den signs with a key minisign made")
    func denSignsMinisignVerifies() throws {
        let fixture = try SigningFixture()
        try fixture.sign()
        let verified = try run(["-V", "-p", fixture.ring.publicKeyFile("acme").path, "-m", fixture.about.path])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stdout.contains("den-module id=about version=1.0.0 sha256="), "\(verified.stdout)")

        let key = try minisignKey(fixture)
        try ModuleSigner.sign(fixture.about, with: try fixture.ring.secretKey(key.secret.path))
        #expect(try run(["-V", "-p", key.public.path, "-m", fixture.about.path]).status == 0)
        let tampered = try run(["-V", "-p", fixture.ring.publicKeyFile("acme").path, "-m", fixture.about.path])
        #expect(tampered.status != 0, "minisign must refuse the other key's signature")
    }

    @Test("a password-protected minisign key is refused with what to do instead")
    func protectedKey() throws {
        let fixture = try SigningFixture()
        let secret = fixture.folder.temp.path("locked.key"), pub = fixture.folder.temp.path("locked.pub")
        // minisign reads the password twice from standard input.
        guard FileManager.default.isExecutableFile(atPath: Self.minisign.path) else { throw MinisignMissing() }
        let made = try ProcessRunner.run(Self.minisign, ["-G", "-s", secret.path, "-p", pub.path], input: "pw\npw\n")
        try #require(made.status == 0, "\(made.stderr)")
        #expect(throws: KeyRing.Failure.self) { try fixture.ring.secretKey(secret.path) }
        do { _ = try fixture.ring.secretKey(secret.path) } catch {
            #expect(error.description.contains("protected by a password"), "\(error)")
        }
    }
}

struct MinisignMissing: Error, CustomStringConvertible {
    var description: String { "\(MinisignCompatibilitySpec.minisign.path) is missing: Scripts/setup.sh installs Debian's minisign" }
}
