import JogsModule
import DenKit
import Foundation
import Testing

/// The manifest built into libJogsModule.so (Plugins/Jogs/Manifest/module.json) must say what the
/// module registers: den refuses the library at load otherwise. This catches it before a build.
@Suite("Jogs's manifest")
struct JogsManifestTests {
    @Test("module.json describes exactly jogsModule's id, version, summary, routes and settings")
    func manifestMatchesDefinition() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Plugins/Jogs/Manifest/module.json").standardizedFileURL
        let manifest = try JSONDecoder().decode(ModuleManifest.self, from: Data(contentsOf: file))
        #expect(manifest.v == ModuleManifest.formatVersion)
        #expect(manifest.differences(from: ModuleManifest(jogsModule)) == [])
    }

    /// The one source of truth is `jogsModule`; module.json restates it. This fails for any field
    /// the two state differently: id, version, summary, routes and their login flag (in order),
    /// settings with their type, default, help, limits and empty meaning (in order), exports with
    /// their signatures (in order, word for word).
    @Test("module.json restates jogsModule word for word")
    func manifestRestatesDefinition() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Plugins/Jogs/Manifest/module.json").standardizedFileURL
        let manifest = try JSONDecoder().decode(ModuleManifest.self, from: Data(contentsOf: file))
        #expect(manifest.restatementDifferences(of: jogsModule) == [])
    }
}
