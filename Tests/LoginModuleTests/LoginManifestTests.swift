import LoginModule
import DenKit
import Foundation
import Testing

/// The manifest built into libLoginModule.so (Plugins/Login/Manifest/module.json) must say what the
/// module registers: den refuses the library at load otherwise. This catches it before a build.
@Suite("Login's manifest")
struct LoginManifestTests {
    @Test("module.json describes exactly loginModule's id, version, summary, routes and settings")
    func manifestMatchesDefinition() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Plugins/Login/Manifest/module.json").standardizedFileURL
        let manifest = try JSONDecoder().decode(ModuleManifest.self, from: Data(contentsOf: file))
        #expect(manifest.v == ModuleManifest.formatVersion)
        #expect(manifest.differences(from: ModuleManifest(loginModule)) == [])
    }
}
