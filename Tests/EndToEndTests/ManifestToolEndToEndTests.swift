import DenTestSupport
import Foundation
import Testing

/// `den-manifest-swift` as DenManifestPlugin runs it during a module's build: module.json and the
/// target's Swift sources in, the generated Swift out, or a build error (`<file>:<line>: error:`)
/// that names a builder or export the sources implement but module.json does not declare.
@Suite("den-manifest-swift, the build tool DenManifestPlugin runs")
struct ManifestToolEndToEndTests {
    let temp: TemporaryDirectory
    let tool: URL

    init() throws {
        temp = try TemporaryDirectory("den-manifest-tool")
        tool = try BuildProducts.require(BuildProducts.directory.appendingPathComponent("den-manifest-swift"))
    }

    func generate(builder: String) throws -> (ProcessResult, output: URL, source: URL) {
        let manifest = try temp.write(Data(#"{"v": 1, "id": "greeter", "version": "1.0.0", "routes": [{"pattern": "hello"}, {"pattern": "hello/<name>"}], "exports": []}"#.utf8),
                                      to: "module.json")
        let source = try temp.write(Data(builder.utf8), to: "GreeterBuilder.swift")
        let output = temp.path("ModuleManifest.swift")
        let result = try ProcessRunner.run(tool, [manifest.path, output.path, "Greeter", source.path])
        return (result, output, source)
    }

    @Test("declared builders only: the Swift is generated")
    func declared() throws {
        let (result, output, _) = try generate(builder: """
            enum GreeterBuilder {
                static func buildHello(_ context: BuildContext) throws -> any ModuleInstance { fatalError() }
                static func buildHello(_ context: BuildContext, name: String) throws -> any ModuleInstance { fatalError() }
            }
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let generated = try String(contentsOf: output, encoding: .utf8)
        #expect(generated.contains("protocol GreeterRouteBuilding {"))
    }

    @Test("a builder module.json does not declare fails the build, naming it, its file and line")
    func undeclared() throws {
        let (result, output, source) = try generate(builder: """
            enum GreeterBuilder {
                static func buildHello(_ context: BuildContext) throws -> any ModuleInstance { fatalError() }
                static func buildHello(_ context: BuildContext, name: String) throws -> any ModuleInstance { fatalError() }
                static func buildGoodbye(_ context: BuildContext) throws -> any ModuleInstance { fatalError() }
            }
            """)
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(source.path):4: error: buildGoodbye(_:) is a route builder"), "\(result.stderr)")
        #expect(result.stderr.contains("it declares: buildHello(_:), buildHello(_:name:)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
