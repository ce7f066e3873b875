import DenTestSupport
import Foundation
import Testing

/// Module folders add up: bundled, then the user's own, then --plugin-dir / DEN_PLUGIN_PATH.
@Suite("Module folders add up")
struct ModuleFoldersEndToEndTests {
    @Test("a third-party module in --plugin-dir loads beside the bundled modules")
    func namedFolderAddsUp() throws {
        let den = try DenCommand()
        let folder = try CPluginEndToEndTests().buildCounter(into: den)
        let result = try den.run(["plugins", "--plugin-dir", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("active  about 1.0.0"))
        #expect(result.stdout.contains("active  main 1.0.0"))
        #expect(result.stdout.contains("active  login 1.0.0"))
        #expect(result.stdout.contains("libCounterModule.so"))
        #expect(result.stdout.contains("\(BuildProducts.bundledModuleFiles.count + 1) active, 0 failed"))
    }

    @Test("modules in $XDG_DATA_HOME/den/modules load without any option")
    func userFolder() throws {
        let den = try DenCommand()
        let built = try CPluginEndToEndTests().buildCounter(into: den)
        let xdg = try den.temp.folder("xdg")
        let modules = xdg.appendingPathComponent("den/modules")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        try den.temp.copy(built.appendingPathComponent("libCounterModule.so"), into: modules)
        let result = try den.run(["plugins"], environment: ["XDG_DATA_HOME": xdg.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(modules.appendingPathComponent("libCounterModule.so").path))
        #expect(result.stdout.contains("\(BuildProducts.bundledModuleFiles.count + 1) active, 0 failed"))
        let render = try den.run(["render", "counter/41"], environment: ["XDG_DATA_HOME": xdg.path])
        #expect(render.status == 0, "\(render.stderr)")
    }

    @Test("--no-default-modules loads only the named folders")
    func noDefaultModules() throws {
        let den = try DenCommand()
        let folder = try CPluginEndToEndTests().buildCounter(into: den)
        let result = try den.run(["plugins", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("about"))
        #expect(result.stdout.contains("1 active, 0 failed"))
        let none = try den.run(["plugins", "--no-default-modules"])
        #expect(none.status == 1)
        #expect(none.stdout.contains("no folder was searched"))
    }

    @Test("the build folder's fixtures and helper libraries are never reported as plugins")
    func bundledFolderHoldsOnlyModules() throws {
        let result = try DenCommand().run(["plugins"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\(BuildProducts.bundledModuleFiles.count) active, 0 failed"))
        #expect(!result.stdout.contains("DenFixture"))
        #expect(!result.stdout.contains("DenHTTPTransport"))
    }
}
