@testable import DenHost
import DenIsolation
@testable import DenTrust
import DenTestSupport
import Foundation

/// A plugin folder with About in it, a config folder holding a trusted key ("Acme"), and what
/// the tests do to the file and its signature.
struct SigningFixture {
    let folder: PluginFolder
    let ring: KeyRing
    let key: Minisign.SecretKey
    let about: URL

    init() throws {
        folder = try PluginFolder()
        ring = KeyRing(configDirectory: try folder.temp.folder("config"))
        _ = try ring.generate(name: "acme", publisher: "Acme")
        key = try ring.secretKey("acme")
        about = try folder.add("AboutModule")
    }

    var signaturePath: String { ModuleTrust.signaturePath(of: about.path) }

    func sign(_ file: URL? = nil) throws {
        try ModuleSigner.sign(file ?? about, with: key)
    }

    /// A valid signature of About by the key whose trusted comment names `id` and `version`.
    func sign(claiming id: String, version: String) throws {
        let bytes = try [UInt8](Data(contentsOf: about))
        let crypto = SigningLibrary.shared
        let comment = ModuleSignature.trustedComment(id: id, version: version, sha256: try crypto.sha256(bytes))
        let main = try crypto.sign(seed: key.seed, message: try crypto.blake2b(bytes, length: 64))
        let global = try crypto.sign(seed: key.seed, message: main + Array(comment.utf8))
        let signature = Minisign.Signature(prehashed: true, keyID: key.keyID, signature: main, trustedComment: comment,
                                           globalSignature: global, untrustedComment: "test")
        try signature.fileText.write(toFile: signaturePath, atomically: true, encoding: .utf8)
    }

    /// Changes one byte of `file` in place: a byte of the linker's `.comment` text ("clang
    /// version …"), which no loader reads, so only the signature can tell.
    func changeOneByte(_ file: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: file))
        let marker = Array("clang version".utf8)
        let offset = (0...(bytes.count - marker.count)).first { bytes[$0..<($0 + marker.count)].elementsEqual(marker) } ?? bytes.count / 2
        let handle = try FileHandle(forWritingTo: file)
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: Data([bytes[offset] ^ 0x20]))
        try handle.close()
    }

    func trust(_ policy: TrustPolicy) -> ModuleTrust {
        ModuleTrust(policy: policy, trustFiles: [ring.trustFile], cacheDirectory: folder.temp.path("cache"))
    }

    func runtime(_ policy: TrustPolicy, lazily: Bool, sandbox: Bool = true) -> DenRuntime {
        var configuration = HostConfiguration(pluginDirectories: [folder.plugins], bundledDirectory: nil,
                                              cacheDirectory: folder.temp.path("cache"), dataDirectory: folder.temp.path("data"))
        configuration.loadsLazily = lazily
        configuration.trust = trust(policy)
        // isolate-unsigned runs an untrusted module in a worker: den itself (docs/ISOLATION.md).
        configuration.workerExecutable = BuildProducts.den.path
        configuration.hosting.sandbox = sandbox
        configuration.useWorkerIsolation()
        let runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins()
        return runtime
    }

    /// Whether About runs: its record is active and its screen opens (which loads a lazy module).
    func aboutRuns(_ runtime: DenRuntime) -> (runs: Bool, error: String?) {
        guard let record = runtime.record("libAboutModule.so") else { return (false, "no record") }
        if let error = record.error { return (false, error.description) }
        let view = runtime.makeSession().open("about")
        if !view.errors.isEmpty { return (false, view.errors.map { "\($0)" }.joined(separator: "; ")) }
        // A lazy module that fails its first load shows a "Cannot open" screen; its record says why.
        if let error = runtime.record("libAboutModule.so")?.error { return (false, error.description) }
        return (view.screen.title.contains("About"), view.screen.title.contains("About") ? nil : "screen: \(view.screen.title)")
    }
}
