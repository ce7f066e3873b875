import DenManifestCodegen
import Foundation
import Testing

/// The generated Swift: one typed requirement per route and export, and a registration made only
/// from module.json, so an undeclared route cannot be registered and an unimplemented one does
/// not compile (the conformance names the missing function).
@Suite struct ModuleSwiftSourceTests {
    static func source(_ json: String = CheckedManifestTests.jogs) throws -> String {
        ModuleSwiftSource(manifest: try CheckedManifestTests.read(json), prefix: "Jogs", sourceName: "Manifest/module.json").render()
    }

    @Test func eachRouteIsARequirementWithTypedParameters() throws {
        let source = try Self.source()
        #expect(source.contains("protocol JogsRouteBuilding {"))
        #expect(source.contains("static func buildJogs(_ context: BuildContext) throws -> any ModuleInstance"))
        #expect(source.contains("static func buildJogs(_ context: BuildContext, `id`: Int) throws -> any ModuleInstance"))
        #expect(source.contains("static func buildConvert(_ context: BuildContext, `amount`: Double, `from`: String, `to`: String) throws -> any ModuleInstance"))
        // The conformance is what makes a route without its builder a compile error.
        #expect(source.contains("extension JogsBuilder: JogsRouteBuilding {}"))
    }

    @Test func registrationIsMadeFromTheDeclaredRoutesOnly() throws {
        let source = try Self.source()
        #expect(source.contains("public let jogsModule = ModuleDefinition("))
        #expect(source.contains("RouteDefinition(JogsManifest.Routes.jogsId, requiresLogin: true) { context in\n            try JogsBuilder.buildJogs(context, id: context.int(\"id\"))"))
        #expect(source.components(separatedBy: "RouteDefinition(").count - 1 == 4)
        // A route removed from module.json leaves its builder unregistered (and unrequired).
        let fewer = try Self.source(CheckedManifestTests.jogs.replacingOccurrences(of: #"{"pattern": "jogs/new"}, "#, with: ""))
        #expect(!fewer.contains("buildJogsNew"))
    }

    @Test func eachExportIsATypedRequirementAndACFunction() throws {
        let json = #"{"v": 1, "id": "main", "version": "1.0.0", "routes": [], "exports": [{"name": "convert", "signature": "(f64 amount, string from, i64 places, bool exact) -> string"}, {"name": "reset", "signature": "() -> void"}]}"#
        let source = ModuleSwiftSource(manifest: try CheckedManifestTests.read(json), prefix: "Main", sourceName: "Manifest/module.json").render()
        #expect(source.contains("static func convert(host: HostServices, `amount`: Double, `from`: String, `places`: Int64, `exact`: Bool) throws -> String"))
        #expect(source.contains("static func reset(host: HostServices) throws\n"))
        #expect(source.contains("extension MainExports: MainExporting {}"))
        #expect(source.contains("as @convention(c) (UnsafeRawPointer?, Double, UnsafePointer<CChar>?, Int64, Bool, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32"))
        #expect(source.contains("DenExport.void(error) { try MainExports.reset(host: DenExport.services(host)) }"))
        #expect(source.contains(" from: DenExport.text(a1)"), "call-site labels without backticks Swift does not need")
    }

    @Test func noExportsNoExportProtocol() throws {
        let source = try Self.source(#"{"v": 1, "id": "about", "version": "1.0.0", "routes": [{"pattern": "about"}], "exports": []}"#)
        #expect(!source.contains("Exporting"))
    }

    @Test func valuesAreSwiftLiterals() throws {
        let json = #"{"v": 1, "id": "main", "version": "1.0.0", "summary": "Say \"hi\"\\now", "routes": [], "exports": [], "settings": [{"name": "rates_url", "type": "url", "default": "https://x.example/r", "help": "h", "empty": "offline"}], "navigation": [{"title": "Converter", "route": "main", "order": 10}]}"#
        let source = try Self.source(json)
        #expect(source.contains(#"static let summary = "Say \"hi\"\\now""#))
        #expect(source.contains(#"static let ratesUrl = SettingDefinition("rates_url", kind: .url, default: "https://x.example/r", help: "h", emptyMeans: "offline")"#))
        #expect(source.contains(#"NavigationEntry(title: "Converter", route: "main", order: 10),"#))
    }
}
