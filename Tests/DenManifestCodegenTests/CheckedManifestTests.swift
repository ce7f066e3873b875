import DenManifestCodegen
import Foundation
import Testing

/// Reading module.json: what the generated Swift is made of, and the build errors a bad file gives.
@Suite struct CheckedManifestTests {
    static let jogs = """
    {"v": 1, "id": "jogs", "version": "1.0.0", "summary": "Jogging log",
     "routes": [{"pattern": "jogs", "requiresLogin": true}, {"pattern": "jogs/new"}, {"pattern": "jogs/<int:id>", "requiresLogin": true},
                {"pattern": "convert/<double:amount>/<from>/<string:to>"}],
     "exports": [{"name": "weekly_totals", "signature": "() -> string", "summary": "Per week"}]}
    """

    static func read(_ json: String, file: String = "Plugins/Jogs/Manifest/module.json") throws(ManifestProblem) -> CheckedManifest {
        try CheckedManifest(data: Data(json.utf8), file: file)
    }

    static func problem(_ json: String) -> ManifestProblem? {
        do {
            _ = try read(json)
            return nil
        } catch {
            return error
        }
    }

    @Test func routesGetBuilderNamesAndTypedParameters() throws {
        let routes = try Self.read(Self.jogs).routes
        #expect(routes.map(\.builderName) == ["buildJogs", "buildJogsNew", "buildJogs", "buildConvert"])
        #expect(routes.map(\.constantName) == ["jogs", "jogsNew", "jogsId", "convertAmountFromTo"])
        #expect(routes.map(\.requiresLogin) == [true, false, true, false])
        #expect(routes[2].parameters.map(\.name) == ["id"])
        #expect(routes[2].parameters.map(\.type.rawValue) == ["int"])
        // `<from>` is short for `<string:from>`.
        #expect(routes[3].parameters.map(\.type.rawValue) == ["double", "string", "string"])
    }

    @Test func exportsGetFunctionNames() throws {
        let exports = try Self.read(Self.jogs).exports
        #expect(exports.map(\.functionName) == ["weeklyTotals"])
        #expect(exports.map(\.summary) == ["Per week"])
    }

    @Test func aMissingFieldIsNamedWithTheFile() {
        let problem = Self.problem(#"{"v": 1, "id": "x", "version": "1.0.0", "routes": [{"requiresLogin": true}], "exports": []}"#)
        #expect(problem?.field == "routes[0].pattern")
        #expect(problem?.description.hasPrefix("Plugins/Jogs/Manifest/module.json: error: routes[0].pattern: is missing.") == true)
    }

    @Test func aFieldOfTheWrongKindIsNamed() {
        let problem = Self.problem(#"{"v": 1, "id": "x", "version": "1.0.0", "routes": [{"pattern": "x", "requiresLogin": "yes"}], "exports": []}"#)
        #expect(problem?.field == "routes[0].requiresLogin")
        #expect(problem?.problem == "is not true or false")
    }

    @Test func badJSONSaysSo() {
        let problem = Self.problem(#"{"v": 1, "id": "x""#)
        #expect(problem?.problem.contains("is not valid JSON") == true)
    }

    @Test func aBadPatternIsNamedWithWhatToWrite() {
        let problem = Self.problem(#"{"v": 1, "id": "x", "version": "1.0.0", "routes": [{"pattern": "x"}, {"pattern": "x/<float:f>"}], "exports": []}"#)
        #expect(problem?.field == "routes[1].pattern")
        #expect(problem?.problem.contains("'x/<float:f>' is not a route pattern") == true)
        #expect(problem?.fix.contains("<int:id>") == true)
    }

    @Test func twoRoutesNeedingOneBuilderAreRefused() {
        let problem = Self.problem(#"{"v": 1, "id": "x", "version": "1.0.0", "routes": [{"pattern": "a/<int:id>/b"}, {"pattern": "a/b/<string:id>"}], "exports": []}"#)
        #expect(problem?.field == "routes[1].pattern")
        #expect(problem?.problem.contains("same builder function") == true)
    }

    @Test func badExportsAreNamed() {
        let base = #"{"v": 1, "id": "x", "version": "1.0.0", "routes": [], "exports": "#
        #expect(Self.problem(base + #"[{"name": "Shout", "signature": "() -> string"}]}"#)?.field == "exports[0].name")
        #expect(Self.problem(base + #"[{"name": "shout"}]}"#)?.field == "exports[0].signature")
        #expect(Self.problem(base + #"[{"name": "shout", "signature": "(text) -> string"}]}"#)?.field == "exports[0].signature")
        #expect(Self.problem(#"{"v": 1, "id": "x", "version": "1.0.0", "routes": []}"#)?.field == "exports")
    }

    @Test func badIdentityAndSettingsAreNamed() {
        #expect(Self.problem(#"{"v": 2, "id": "x", "version": "1.0.0", "routes": [], "exports": []}"#)?.field == "v")
        #expect(Self.problem(#"{"v": 1, "id": "X Y", "version": "1.0.0", "routes": [], "exports": []}"#)?.field == "id")
        let setting = #"{"v": 1, "id": "x", "version": "1.0.0", "routes": [], "exports": [], "settings": [{"name": "days", "type": "integer", "default": "0", "help": "h", "min": 1}]}"#
        #expect(Self.problem(setting)?.field == "settings[0]")
    }
}
