import DenManifestCodegen
import Testing

/// "Implemented but not declared": a builder or export function in the module's Swift that
/// module.json does not declare is a build error naming it, its file and its line.
@Suite struct UndeclaredFunctionScanTests {
    static let manifest = #"""
    {"v": 1, "id": "jogs", "version": "1.0.0",
     "routes": [{"pattern": "jogs"}, {"pattern": "jogs/new"}, {"pattern": "jogs/<int:id>"}],
     "exports": [{"name": "weekly_totals", "signature": "() -> string"}]}
    """#

    static func findings(_ source: String) throws -> [UndeclaredFunctionScan.Finding] {
        UndeclaredFunctionScan.findings(in: source, file: "Plugins/Jogs/Builder/JogsBuilder.swift",
                                        manifest: try CheckedManifestTests.read(manifest))
    }

    @Test func declaredBuildersAreNamedWithTheirLabels() throws {
        let manifest = try CheckedManifestTests.read(Self.manifest)
        #expect(UndeclaredFunctionScan.declaredBuilders(manifest) == ["buildJogs(_:)", "buildJogsNew(_:)", "buildJogs(_:id:)"])
        #expect(UndeclaredFunctionScan.declaredExports(manifest) == ["weeklyTotals"])
    }

    @Test func theDeclaredFunctionsAndHelpersPass() throws {
        let source = """
        enum JogsBuilder {
            static func buildJogs(_ context: BuildContext) throws -> any ModuleInstance { build(context, .list) }
            static func buildJogsNew(_ context: BuildContext) throws -> any ModuleInstance { build(context, .new) }
            static func buildJogs(_ context: BuildContext,
                                  `id`: Int) throws -> any ModuleInstance { build(context, .detail(id)) }
            static func build(_ context: BuildContext, _ screen: Screen) -> any ModuleInstance { fatalError() }
            static func buildings(_ count: Int) -> Int { count }
            static func host(_ host: HostServices) -> Self { Self() }
        }
        extension JogsExports {
            static func weeklyTotals(host: HostServices) throws -> String { "" }
        }
        """
        #expect(try Self.findings(source).isEmpty)
    }

    @Test func anUndeclaredBuilderIsNamedWithItsFileAndLine() throws {
        let source = """
        enum JogsBuilder {
            static func buildJogs(_ context: BuildContext) throws -> any ModuleInstance { build(context) }

            /// A route module.json lacks.
            static func buildJogsSettings(_ context: BuildContext) throws -> any ModuleInstance { build(context) }
        }
        """
        let findings = try Self.findings(source)
        #expect(findings.map(\.function) == ["buildJogsSettings(_:)"])
        #expect(findings.first?.line == 5)
        let text = try #require(findings.first?.description)
        #expect(text.hasPrefix("Plugins/Jogs/Builder/JogsBuilder.swift:5: error: buildJogsSettings(_:) is a route builder"))
        #expect(text.contains("Manifest/module.json declares no such one (it declares: buildJogs(_:), buildJogsNew(_:), buildJogs(_:id:))"))
    }

    @Test func aBuilderWithOtherLabelsThanItsRouteIsNamed() throws {
        let source = "enum JogsBuilder {\n    static func buildJogs(_ context: BuildContext, identifier: Int) throws -> any ModuleInstance { fatalError() }\n}\n"
        #expect(try Self.findings(source).map(\.function) == ["buildJogs(_:identifier:)"])
    }

    @Test func anUndeclaredExportIsNamed() throws {
        let source = """
        extension JogsExports {
            static func weeklyTotals(host: HostServices) throws -> String { "" }
            static func monthlyTotals(host: HostServices, year: Int64) throws -> String { "" }
        }
        """
        let findings = try Self.findings(source)
        #expect(findings.map(\.function) == ["monthlyTotals(host:year:)"])
        #expect(findings.first?.line == 3)
        #expect(findings.first?.description.contains("is an export function (first parameter host: HostServices)") == true)
    }

    @Test func commentsAndStringsAreNotDeclarations() throws {
        let source = #"""
        // static func buildOld(_ context: BuildContext) throws -> any ModuleInstance
        /* static func buildGone(_ context: BuildContext) /* nested */ static func buildAlsoGone(_ c: BuildContext) */
        let help = "write static func buildThing(_ context: BuildContext)"
        let more = """
            static func buildMore(_ context: BuildContext)
            """
        let raw = #"say "static func buildRaw(_ context: BuildContext)""#
        enum JogsBuilder {
            static func buildReal(_ context: BuildContext) throws -> any ModuleInstance { fatalError() }
        }
        """#
        let findings = try Self.findings(source)
        #expect(findings.map(\.function) == ["buildReal(_:)"])
        #expect(findings.first?.line == 9)
    }
}
