import DenTestSupport
import Foundation
import Testing

/// `den modules publish` as a module author meets it: a real key, real module files, the index
/// checked against its JSON Schema with the PyPI `jsonschema` package and both signatures checked
/// with Debian's `minisign` (docs/CATALOG.md).
@Suite("Publishing to a catalog: a folder of signed plain files")
struct CatalogPublishEndToEndTests {
    struct Catalog {
        let den: DenCommand
        let folder: URL

        init() throws {
            den = try DenCommand()
            folder = den.temp.path("catalog")
            let made = try den.run(["keys", "generate", "acme", "--as", "Acme Inc"])
            guard made.status == 0 else { throw StubServerError("den keys generate failed: \(made.stderr)") }
        }

        func publish(_ library: String, key: String = "acme") throws -> ProcessResult {
            try den.run(["modules", "publish", BuildProducts.require(BuildProducts.library(library)).path, "--to", folder.path, "--key", key])
        }

        var index: [String: Any] {
            get throws {
                let data = try Data(contentsOf: folder.appendingPathComponent("index.json"))
                return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
        }

        func entry(_ id: String) throws -> [String: Any] {
            let modules = try #require(try index["modules"] as? [String: Any])
            return try #require((modules[id] as? [[String: Any]])?.first)
        }

        var publicKey: String { den.temp.path("config/keys/acme.pub").path }

        static func root() -> URL {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        }
    }

    @Test("two publishes make an index of serial 2, valid against its schema, whose hashes and sizes are the files', signed so that minisign checks it")
    func publish() throws {
        let catalog = try Catalog()
        let about = try catalog.publish("AboutModule")
        #expect(about.status == 0, "\(about.stderr)")
        #expect(about.stdout.contains("Published about 1.0.0 to \(catalog.folder.path) (index serial 1): files/about/about-1.0.0.so"), "\(about.stdout)")
        #expect(try catalog.publish("MainModule").status == 0)
        #expect(try catalog.index["serial"] as? Int == 2)

        let schema = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                           ["python3", Catalog.root().appendingPathComponent("Scripts/validate-json.py").path, "catalog-index",
                                            catalog.folder.appendingPathComponent("index.json").path])
        #expect(schema.status == 0, "\(schema.stdout)\(schema.stderr)")

        let main = try catalog.entry("main")
        let file = catalog.folder.appendingPathComponent(try #require(main["file"] as? String))
        #expect(file.path.hasSuffix("files/main/main-1.0.0.so"))
        let bytes = try Data(contentsOf: file)
        #expect(main["size"] as? Int == bytes.count)
        let sum = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [file.path])
        #expect(sum.stdout.hasPrefix(try #require(main["sha256"] as? String)))
        let manifest = try #require(main["manifest"] as? [String: Any])
        #expect((manifest["permissions"] as? [String: Any])?["http"] as? [String] == ["www.ecb.europa.eu"], "the index shows what it asks for")

        for signed in ["index.json", "files/main/main-1.0.0.so"] {
            let check = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/minisign"),
                                              ["-V", "-p", catalog.publicKey, "-m", catalog.folder.appendingPathComponent(signed).path])
            #expect(check.status == 0, "\(signed): \(check.stdout)\(check.stderr)")
        }
        let comment = try String(contentsOf: catalog.folder.appendingPathComponent("index.json.minisig"), encoding: .utf8)
        #expect(comment.contains("trusted comment: den-catalog serial=2"))
    }

    @Test("a published file installs under require-signature, signed by the catalog's publisher")
    func installs() throws {
        let catalog = try Catalog()
        #expect(try catalog.publish("AboutModule").status == 0)
        let file = catalog.folder.appendingPathComponent("files/about/about-1.0.0.so")
        let install = try catalog.den.run(["modules", "install", file.path, "--yes"], environment: ["DEN_TRUST_POLICY": "require-signature"])
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stdout.contains("signed by Acme Inc"), "\(install.stdout)")
    }

    @Test("a version already published is refused, and the catalog is left as it was")
    func immutable() throws {
        let catalog = try Catalog()
        #expect(try catalog.publish("AboutModule").status == 0)
        let before = try Data(contentsOf: catalog.folder.appendingPathComponent("index.json"))
        let again = try catalog.publish("AboutModule")
        #expect(again.status == 1)
        #expect(again.stderr.contains("about 1.0.0 is in \(catalog.folder.path) already; a published version never changes"), "\(again.stderr)")
        #expect(try Data(contentsOf: catalog.folder.appendingPathComponent("index.json")) == before)
    }

    @Test("a catalog signed by another key, or whose index was changed after signing, is not published to")
    func refused() throws {
        let catalog = try Catalog()
        #expect(try catalog.publish("AboutModule").status == 0)
        #expect(try catalog.den.run(["keys", "generate", "other", "--as", "Other"]).status == 0)
        let other = try catalog.publish("MainModule", key: "other")
        #expect(other.status == 1)
        #expect(other.stderr.contains("is signed by key"), "\(other.stderr)")

        let indexURL = catalog.folder.appendingPathComponent("index.json")
        let tampered = try String(contentsOf: indexURL, encoding: .utf8).replacingOccurrences(of: "\"serial\" : 1", with: "\"serial\" : 7")
        try tampered.write(to: indexURL, atomically: true, encoding: .utf8)
        let changed = try catalog.publish("MainModule")
        #expect(changed.status == 1)
        #expect(changed.stderr.contains("does not match its signature"), "\(changed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: catalog.folder.appendingPathComponent("files/main").path), "nothing was added")
    }

    @Test("a file that is no module is refused before anything is written")
    func notAModule() throws {
        let catalog = try Catalog()
        let junk = catalog.den.temp.path("junk.so")
        try Data("not an ELF file".utf8).write(to: junk)
        let result = try catalog.den.run(["modules", "publish", junk.path, "--to", catalog.folder.path, "--key", "acme"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(junk.path), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: catalog.folder.appendingPathComponent("index.json").path))
    }
}
