import AboutModule
import DenKit
import Foundation
import Testing

/// The manifest built into libAboutModule.so (Plugins/About/Manifest/module.json) must say what the
/// module registers: den refuses the library at load otherwise. This catches it before a build.
@Suite("About's manifest")
struct AboutManifestTests {
    @Test("module.json describes exactly aboutModule's id, version, summary, routes and settings")
    func manifestMatchesDefinition() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Plugins/About/Manifest/module.json").standardizedFileURL
        let manifest = try JSONDecoder().decode(ModuleManifest.self, from: Data(contentsOf: file))
        #expect(manifest.v == ModuleManifest.formatVersion)
        #expect(manifest.differences(from: ModuleManifest(aboutModule)) == [])
    }
}
