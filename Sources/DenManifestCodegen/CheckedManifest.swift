import DenKit
import DenRouting
import Foundation

/// A module.json read and checked for what the generated Swift needs, with every name it will
/// use. Anything den would refuse at load, or that would not make valid Swift, is a
/// `ManifestProblem` naming the field.
package struct CheckedManifest {
    package struct Route {
        package var pattern: RoutePattern
        package var requiresLogin: Bool
        /// The constant naming the pattern: `jogs/<int:id>` → `jogsId`.
        package var constantName: String
        /// The builder requirement: `jogs/<int:id>` → `buildJogs` (with `id: Int`).
        package var builderName: String
        package var parameters: [(name: String, type: RouteParameterType)]

        /// The names the generated Swift uses for `pattern` (`den new-module` writes builders with them too).
        package init(pattern: RoutePattern, requiresLogin: Bool) {
            self.pattern = pattern
            self.requiresLogin = requiresLogin
            parameters = pattern.parameterNames.map { ($0, pattern.parameterType(named: $0) ?? .string) }
            let segments = pattern.text.split(separator: "/")
            let literals = SwiftNaming.lowerCamel(segments.filter { !$0.hasPrefix("<") }.joined(separator: "-"))
            builderName = "build" + SwiftNaming.upperFirst(literals.isEmpty ? "route" : literals)
            let constant = SwiftNaming.lowerCamel(segments.map {
                $0.hasPrefix("<") ? String($0.dropFirst().dropLast().split(separator: ":").last ?? "") : String($0)
            }.joined(separator: "-"))
            constantName = constant.isEmpty ? "route" : constant
        }

        /// `buildJogs(id:)`: what two routes must not share.
        var builderKey: String { builderName + "(" + parameters.map { $0.name + ":" }.joined() + ")" }
    }

    package struct Export {
        package var name: String
        package var signatureText: String
        package var signature: ExportSignature
        package var summary: String
        /// `weekly_totals` → `weeklyTotals`.
        package var functionName: String
    }

    package var manifest: ModuleManifest
    package var routes: [Route]
    package var exports: [Export]

    /// Reads `data` (the contents of `file`) and checks it.
    package init(data: Data, file: String) throws(ManifestProblem) {
        func fail(_ field: String, _ problem: String, _ fix: String) -> ManifestProblem {
            ManifestProblem(file: file, field: field, problem: problem, fix: fix)
        }
        do {
            manifest = try JSONDecoder().decode(ModuleManifest.self, from: data)
        } catch let error as DecodingError {
            throw Self.problem(for: error, file: file)
        } catch {
            throw fail("(document)", "cannot be read: \(error)", "Write a JSON object as docs/schema/v1/manifest.json describes.")
        }
        if manifest.v != ModuleManifest.formatVersion {
            throw fail("v", "is \(manifest.v), but this DenKit writes format \(ModuleManifest.formatVersion)",
                       "Write \"v\": \(ModuleManifest.formatVersion).")
        }
        if !Self.isValidID(manifest.id) {
            throw fail("id", "'\(manifest.id)' is not a module id",
                       "Use 1-64 characters of a-z, 0-9, '-' and '_', starting with a letter or digit (e.g. \"weather\").")
        }
        if manifest.version.split(separator: ".").count < 3 {
            throw fail("version", "'\(manifest.version)' is not a semantic version", "Write MAJOR.MINOR.PATCH, e.g. \"1.0.0\".")
        }
        if !manifest.declaresExports {
            throw fail("exports", "is missing, so den would not check what the module exports",
                       "Write \"exports\": [] when the module exports nothing.")
        }

        var routes: [Route] = []
        var builders: [String: String] = [:]
        for (index, route) in manifest.routes.enumerated() {
            let field = "routes[\(index)].pattern"
            let pattern: RoutePattern
            do {
                pattern = try RoutePattern(route.pattern)
            } catch {
                throw fail(field, "'\(route.pattern)' is not a route pattern: \(error)",
                           "Write literal segments and placeholders such as \"jogs/<int:id>\" (docs/WRITING_MODULES.md, \"Routes and guards\").")
            }
            if let other = routes.first(where: { $0.pattern.shape == pattern.shape }) {
                throw fail(field, "'\(route.pattern)' matches the same routes as '\(other.pattern.text)'", "Remove one of them.")
            }
            let checked = Route(pattern: pattern, requiresLogin: route.requiresLogin)
            // Two routes with the same literals and the same placeholder names would need one function twice.
            if let other = builders[checked.builderKey] {
                throw fail(field, "'\(route.pattern)' would need the same builder function as '\(other)' (\(checked.builderKey))",
                           "Give one of them another literal segment or other placeholder names.")
            }
            builders[checked.builderKey] = route.pattern
            routes.append(checked)
        }
        self.routes = routes

        for (index, setting) in manifest.settings.enumerated() {
            if let problem = setting.declarationProblem {
                throw fail("settings[\(index)]", problem, "Fix the setting as docs/ABI.md \"Settings\" describes.")
            }
        }
        for (index, entry) in manifest.navigation.enumerated() {
            if let problem = entry.problem {
                throw fail("navigation[\(index)]", problem, "Fix the entry as docs/ABI.md \"The manifest\" describes.")
            }
        }

        var exports: [Export] = []
        for (index, export) in manifest.exports.enumerated() {
            if !ExportName.isValid(export.name) {
                throw fail("exports[\(index)].name", "'\(export.name)' is not an export name", "Use \(ExportName.rule).")
            }
            if exports.contains(where: { $0.name == export.name }) {
                throw fail("exports[\(index)].name", "'\(export.name)' is listed twice", "List each export once.")
            }
            guard let text = export.signature else {
                throw fail("exports[\(index)].signature", "is missing",
                           "Write the signature in the notation of docs/ABI.md \"Exports\", e.g. \"(f64 amount, string from) -> string\".")
            }
            let signature: ExportSignature
            do {
                signature = try ExportSignature(parsing: text)
            } catch {
                throw fail("exports[\(index)].signature", "\(error)", "Write e.g. \"(i64 value, string label) -> string\".")
            }
            exports.append(Export(name: export.name, signatureText: text, signature: signature, summary: export.summary ?? "",
                                  functionName: SwiftNaming.lowerCamel(export.name)))
        }
        self.exports = exports
    }

    /// A decoding error as the field it is about: `routes[1].pattern: is missing`.
    static func problem(for error: DecodingError, file: String) -> ManifestProblem {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "(document)" : text
        }
        let fix = "See docs/schema/v1/manifest.json for every field and its type."
        switch error {
        case .keyNotFound(let key, let context):
            return ManifestProblem(file: file, field: path(context.codingPath + [key]), problem: "is missing", fix: fix)
        case .typeMismatch(let type, let context):
            return ManifestProblem(file: file, field: path(context.codingPath), problem: "is not \(Self.jsonKind(type))", fix: fix)
        case .valueNotFound(let type, let context):
            return ManifestProblem(file: file, field: path(context.codingPath), problem: "is null, where \(Self.jsonKind(type)) belongs", fix: fix)
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            return ManifestProblem(file: file, field: path(context.codingPath),
                                   problem: "is not valid JSON: \(context.debugDescription)\(underlying)", fix: "Fix the JSON syntax.")
        @unknown default:
            return ManifestProblem(file: file, field: "(document)", problem: "\(error)", fix: fix)
        }
    }

    private static func jsonKind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "a whole number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: "the expected kind of value (\(type))"
        }
    }

    /// den's rule for a module id (DenHost's ModuleIdentity, which this build tool does not link).
    static func isValidID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard (1...64).contains(bytes.count) else { return false }
        func allowed(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) }
        return allowed(bytes[0]) && bytes.allSatisfy { allowed($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }
}
