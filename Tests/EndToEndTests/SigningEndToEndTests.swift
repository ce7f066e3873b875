import DenTestSupport
import Foundation
import Testing

/// `den keys`, `den modules sign`, and what `den modules install` and `den plugins` say about
/// signatures (docs/SIGNING.md), with private config, cache and data folders.
@Suite("den keys, den modules sign, and signatures at install")
struct SigningEndToEndTests {
    private func userFolder(_ den: DenCommand) -> URL { den.temp.path("xdg-data/den/modules") }

    static let include = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/CDenABI/include").standardizedFileURL

    /// A small C module with a manifest (`den modules sign` signs the manifest's id and
    /// version), route "signed-demo", built here: no fixture has a manifest and a working route.
    private func demoModule(_ den: DenCommand) throws -> URL {
        let folder = try den.temp.folder("demo")
        let source = folder.appendingPathComponent("demo.c")
        try """
            #include "den_module.h"
            DEN_DEFINE_ABI_VERSION();
            DEN_DEFINE_MANIFEST("{\\"v\\": 1, \\"id\\": \\"signed-demo\\", \\"version\\": \\"1.0.0\\", \\"summary\\": \\"demo\\", \\"routes\\": [{\\"pattern\\": \\"signed-demo\\"}]}");
            static int32_t build(void *c, const den_host *h, den_bytes p, void **s, const den_instance_api **a, den_owned *e) {
                (void)c; (void)h; (void)p; (void)s; (void)a; (void)e; return DEN_ERR_UNSUPPORTED;
            }
            DEN_EXPORT int32_t den_module_entry(const den_host *host, const den_registrar *r) {
                (void)host;
                int32_t status = r->describe(r->ctx, "signed-demo", "1.0.0", "demo");
                return status != DEN_OK ? status : r->add_route(r->ctx, "signed-demo", build, NULL);
            }
            """.write(to: source, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("libSignedDemoModule.so")
        let built = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/cc"),
                                          ["-shared", "-fPIC", "-I", Self.include.path, source.path, "-o", output.path])
        try #require(built.status == 0, "cc: \(built.stderr)")
        return output
    }

    @Test("a key is made with its secret 0600, a module signed with it installs showing its publisher, and den plugins shows it")
    func signAndInstall() throws {
        let den = try DenCommand()
        let made = try den.run(["keys", "generate", "acme", "--as", "Acme Inc"])
        #expect(made.status == 0, "\(made.stderr)")
        let secret = den.temp.path("config/keys/acme.key")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: secret.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600, "the secret key is the user's only: \(String(mode, radix: 8))")

        let file = try demoModule(den)
        let signed = try den.run(["modules", "sign", file.path, "--key", "acme"])
        #expect(signed.status == 0, "\(signed.stderr)")
        #expect(FileManager.default.fileExists(atPath: file.path + ".minisig"))

        let install = try den.run(["modules", "install", file.path], environment: ["DEN_TRUST_POLICY": "require-signature"])
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stdout.contains("signed by Acme Inc"), "\(install.stdout)")
        #expect(FileManager.default.fileExists(atPath: userFolder(den).appendingPathComponent("libSignedDemoModule.so.minisig").path))

        let plugins = try den.run(["plugins", "--no-default-modules", "--trust-policy", "require-signature",
                                   "--plugin-dir", userFolder(den).path])
        #expect(plugins.stdout.contains("signed by Acme Inc (key "), "\(plugins.stdout)")
        let list = try den.run(["keys", "list"])
        #expect(list.stdout.contains("trusted  Acme Inc"), "\(list.stdout)")
    }

    @Test("install refuses a changed file, a revoked key and (under require-signature) a missing signature, copying nothing",
          arguments: ["changed", "revoked", "unsigned"])
    func installRefuses(problem: String) throws {
        let den = try DenCommand()
        #expect(try den.run(["keys", "generate", "acme", "--as", "Acme"]).status == 0)
        let file = try demoModule(den)
        if problem != "unsigned" { #expect(try den.run(["modules", "sign", file.path, "--key", "acme"]).status == 0) }
        var expected = "not signed"
        switch problem {
        case "changed":
            let handle = try FileHandle(forWritingTo: file)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([0]))
            try handle.close()
            expected = "not a signature of this file"
        case "revoked":
            #expect(try den.run(["keys", "revoke", "Acme"]).status == 0)
            expected = "which you revoked"
        default: break
        }
        let install = try den.run(["modules", "install", file.path], environment: ["DEN_TRUST_POLICY": "require-signature"])
        #expect(install.status == 1)
        #expect(install.stderr.contains(expected), "\(install.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: userFolder(den).path)) ?? []).isEmpty)
    }

    @Test("install --trust-policy beats DEN_TRUST_POLICY, and under isolate-unsigned says the module will run isolated")
    func installPolicyOption() throws {
        let den = try DenCommand()
        let file = try demoModule(den)
        let refused = try den.run(["modules", "install", file.path, "--trust-policy", "require-signature"],
                                  environment: ["DEN_TRUST_POLICY": "allow"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("not signed"), "\(refused.stderr)")

        let isolated = try den.run(["modules", "install", file.path, "--trust-policy", "isolate-unsigned"])
        #expect(isolated.status == 0, "\(isolated.stderr)")
        #expect(isolated.stdout.contains("Under isolate-unsigned it runs isolated and sandboxed"), "\(isolated.stdout)")
    }

    @Test("a route of a module the policy refused says why it cannot open, not that nobody serves it")
    func refusedRoute() throws {
        let den = try DenCommand()
        let file = try demoModule(den)
        let result = try den.run(["render", "signed-demo", "--no-default-modules", "--plugin-dir", file.deletingLastPathComponent().path,
                                  "--trust-policy", "require-signature"])
        #expect(result.stdout.contains("Cannot open signed-demo"), "\(result.stdout)")
        #expect(result.stdout.contains("not signed"), "\(result.stdout)")
        #expect(!result.stdout.contains("Not found"), "\(result.stdout)")
    }

    @Test("den plugins --inspect shows a file's publisher, key and signature state, and what the trust policy does with it")
    func inspectShowsTheSignature() throws {
        let den = try DenCommand()
        #expect(try den.run(["keys", "generate", "acme", "--as", "Acme Inc"]).status == 0)
        // The key id as minisign writes it in the public key's comment line.
        let publicKey = try String(contentsOf: den.temp.path("config/keys/acme.pub"), encoding: .utf8)
        let keyID = try #require(publicKey.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
        let file = try demoModule(den)
        let unsigned = try den.run(["plugins", "--inspect", file.path, "--trust-policy", "allow"])
        #expect(unsigned.status == 0, "\(unsigned.stderr)")
        #expect(unsigned.stdout.contains("signature: unsigned\ntrust policy allow: runs"), "\(unsigned.stdout)")
        let required = try den.run(["plugins", "--inspect", file.path, "--trust-policy", "require-signature"])
        #expect(required.status == 1, "this den would not load it")
        #expect(required.stdout.contains("trust policy require-signature: refused"), "\(required.stdout)")
        #expect(required.stdout.contains("PROBLEM") && required.stdout.contains("not signed"), "\(required.stdout)")

        #expect(try den.run(["modules", "sign", file.path, "--key", "acme"]).status == 0)
        let signed = try den.run(["plugins", "--inspect", file.path, "--trust-policy", "require-signature"])
        #expect(signed.status == 0, "\(signed.stdout)\(signed.stderr)")
        #expect(signed.stdout.contains("signature: signed by Acme Inc (key \(keyID))\ntrust policy require-signature: runs"), "\(signed.stdout)")
        let json = try den.run(["plugins", "--inspect", file.path, "--json"], environment: ["DEN_TRUST_POLICY": "require-signature"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let signature = try #require(document["signature"] as? [String: Any], "\(json.stdout)")
        #expect(signature["publisher"] as? String == "Acme Inc")
        #expect(signature["keyID"] as? String == keyID)
        #expect(signature["state"] as? String == "signed")
        #expect(signature["decision"] as? String == "in-process")

        // The file changed after it was signed: refused under every policy, allow included.
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        let changed = try den.run(["plugins", "--inspect", file.path, "--trust-policy", "allow"])
        #expect(changed.status == 1)
        #expect(changed.stdout.contains("signature: bad signature:") && changed.stdout.contains("not a signature of this file"), "\(changed.stdout)")
        #expect(changed.stdout.contains("trust policy allow: refused"), "\(changed.stdout)")
    }

    @Test("a bad trust policy name is a usage error naming the policies")
    func badPolicy() throws {
        let den = try DenCommand()
        let result = try den.run(["render", "about", "--trust-policy", "lax"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown trust policy 'lax'") && result.stderr.contains("require-signature"), "\(result.stderr)")
        let variable = try den.run(["plugins"], environment: ["DEN_TRUST_POLICY": "lax"])
        #expect(variable.status == 64, "\(variable.stderr)")
        #expect(variable.stderr.contains("DEN_TRUST_POLICY"), "\(variable.stderr)")
    }
}
