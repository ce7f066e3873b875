import DenKit
import Foundation
import Testing

/// A module states itself twice, in Swift (`ModuleDefinition`) and in module.json (`den_manifest`).
/// `restatementDifferences(of:)` holds the JSON to a word-for-word copy of the definition; each
/// bundled module's <Name>ManifestTests runs it on its own module.json, and the suite below on the
/// files `den new-module` writes.
@Suite("A manifest restates its module definition word for word")
struct ManifestRestatementSpec {
    static let build: @Sendable (BuildContext) throws -> any ModuleInstance = { _ in throw ModuleError.unsupported("never built") }

    static let definition = ModuleDefinition(
        id: "weather", version: "1.2.0", summary: "Forecasts",
        routes: [RouteDefinition("weather", build: build), RouteDefinition("weather/<string:city>", requiresLogin: true, build: build)],
        settings: [SettingDefinition("units", kind: .choice, default: "metric", help: "Units to show.", options: ["metric", "imperial"]),
                   SettingDefinition("days", kind: .integer, default: "3", help: "Days ahead.", minimum: 1, maximum: 7)],
        exports: [ExportDefinition("forecast", "(string city) -> string", summary: "Tomorrow", function: ()),
                  ExportDefinition("days_ahead", "() -> i64", summary: "Days", function: ())])

    /// The definition's own manifest, as a module.json written from it would say.
    static var copy: ModuleManifest { ModuleManifest(definition) }

    @Test("an exact copy has no difference")
    func exactCopy() {
        #expect(Self.copy.restatementDifferences(of: Self.definition) == [])
    }

    @Test("a different version, summary or route flag is named")
    func fieldsDiffer() {
        var manifest = Self.copy
        manifest.version = "1.2.1"
        manifest.summary = "Forecast"
        manifest.routes[1].requiresLogin = false
        let found = manifest.restatementDifferences(of: Self.definition)
        #expect(found.count == 3, "\(found)")
        #expect(found.contains { $0.contains("version 1.2.1") })
        #expect(found.contains { $0.contains("summary") })
        #expect(found.contains { $0.contains("'weather/<string:city>' is open in the manifest but guarded") })
    }

    @Test("a setting's help, limit or default written differently is named", arguments: [
        { (setting: inout SettingDefinition) in setting.help = "Days to show." },
        { (setting: inout SettingDefinition) in setting.maximum = 8 },
        { (setting: inout SettingDefinition) in setting.defaultValue = "4" },
    ] as [@Sendable (inout SettingDefinition) -> Void])
    func settingDiffers(change: @Sendable (inout SettingDefinition) -> Void) {
        var manifest = Self.copy
        change(&manifest.settings[1])
        #expect(manifest.restatementDifferences(of: Self.definition) == ["setting 'days' differs between the manifest and the declaration"])
    }

    @Test("order matters: routes, settings and exports are listed as the definition lists them")
    func order() {
        var manifest = Self.copy
        manifest.routes.reverse()
        manifest.settings.reverse()
        manifest.exports.reverse()
        let found = manifest.restatementDifferences(of: Self.definition)
        #expect(found.count == 3, "\(found)")
        #expect(found.allSatisfy { $0.contains("in another order") })
    }

    @Test("an export's signature is compared as text, parameter names included, and a missing exports list is named")
    func exports() {
        var renamed = Self.copy
        renamed.exports[0].signature = "(string town) -> string"
        #expect(renamed.differences(from: Self.copy) == [], "den itself does not mind parameter names")
        #expect(renamed.restatementDifferences(of: Self.definition)
            == [#"export 'forecast' has the signature "(string town) -> string" in the manifest, "(string city) -> string" in the definition"#])

        let unlisted = ModuleManifest(id: "weather", version: "1.2.0", summary: "Forecasts", routes: Self.copy.routes,
                                      settings: Self.copy.settings, exports: nil)
        #expect(unlisted.restatementDifferences(of: Self.definition).contains { $0.contains("no \"exports\" list") })
    }

    @Test("a manifest in another format version is named")
    func formatVersion() {
        var manifest = Self.copy
        manifest.v = 2
        #expect(manifest.restatementDifferences(of: Self.definition) == ["the manifest is in format version 2, not 1"])
    }
}

/// `den new-module` writes the module twice too: Sources/<Name>Module/<Name>Module.swift (with
/// Services/<Name>Settings.swift) and Sources/<Name>ModuleManifest/module.json. The templates are
/// rendered here with the values ModuleGenerator passes, and what the Swift files declare must be
/// what the JSON says (the generated package's own StackTests check it again after a build).
@Suite("den new-module's module.json and Module.swift agree")
struct NewModuleTemplateRestatementSpec {
    static let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/DenCommands/Templates").standardizedFileURL

    /// The values ModuleGenerator gives for `den new-module TrailMap --route trails --route trails/<string:name>`.
    static let values: [String: Mustache.Value] = [
        "name": .text("TrailMap"), "id": .text("trail-map"), "moduleVar": .text("trailMapModule"),
        "summary": .text("The TrailMap module"), "firstRouteSample": .text("trails"),
        "routes": .list([["pattern": .text("trails"), "last": .flag(false)],
                         ["pattern": .text("trails/<string:name>"), "last": .flag(true)]]),
    ]

    static func rendered(_ file: String) throws -> String {
        Mustache.render(try String(contentsOf: templates.appendingPathComponent(file), encoding: .utf8), Self.values)
    }

    @Test("the rendered module.json restates the definition the rendered Swift declares")
    func agree() throws {
        let manifest = try JSONDecoder().decode(ModuleManifest.self, from: Data(try Self.rendered("module.json.mustache").utf8))
        let definition = try SwiftDeclarations.definition(module: try Self.rendered("Module.swift.mustache"),
                                                          settings: try Self.rendered("Settings.swift.mustache"))
        #expect(definition.routes.map(\.pattern) == ["trails", "trails/<string:name>"], "the Swift file declares every route")
        #expect(!definition.settings.isEmpty, "the Swift files declare the template's setting")
        #expect(definition.navigation == [NavigationEntry(title: "TrailMap", route: "trails", order: 50)], "one entry for the first route")
        #expect(manifest.restatementDifferences(of: definition) == [])
    }

    @Test("the generated README names the hot-swap commands that work in a third party's package")
    func readmeHotSwap() throws {
        let readme = try Self.rendered("README.md.mustache")
        #expect(readme.contains("```sh\nden dev\n```"), "den dev, run in the package folder")
        #expect(readme.contains("den run trails --watch --plugin-dir .build/debug"), "the terminal's way, with the package's build folder")
        #expect(!readme.contains("a den with `den dev`: see `den help dev`"), "not the checkout-only wording")
    }
}

/// Just enough Mustache for the two templates: `{{x}}` (HTML-escaped, as Mustache does),
/// `{{{x}}}` (raw), `{{#list}}…{{/list}}`, `{{^flag}}…{{/flag}}`.
enum Mustache {
    enum Value: Sendable {
        case text(String)
        case flag(Bool)
        case list([[String: Value]])
    }

    static func render(_ template: String, _ context: [String: Value]) -> String {
        render(Substring(template), [context])
    }

    private static func render(_ template: Substring, _ stack: [[String: Value]]) -> String {
        var output = ""
        var rest = template
        while let open = rest.range(of: "{{") {
            output += rest[..<open.lowerBound]
            if rest[open.upperBound...].hasPrefix("{"), let close = rest.range(of: "}}}", range: open.upperBound..<rest.endIndex) {
                output += text(lookup(String(rest[rest.index(after: open.upperBound)..<close.lowerBound]), stack))
                rest = rest[close.upperBound...]
                continue
            }
            guard let close = rest.range(of: "}}", range: open.upperBound..<rest.endIndex) else { break }
            let tag = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            rest = rest[close.upperBound...]
            guard let kind = tag.first, kind == "#" || kind == "^" else {
                output += escaped(text(lookup(tag, stack)))
                continue
            }
            let key = String(tag.dropFirst())
            guard let end = rest.range(of: "{{/\(key)}}") else { break }
            let inner = rest[..<end.lowerBound]
            rest = rest[end.upperBound...]
            let value = lookup(key, stack)
            switch (kind, value) {
            case ("#", .list(let items)?): for item in items { output += render(inner, stack + [item]) }
            case ("#", .flag(true)?), ("#", .text?): output += render(inner, stack)
            case ("^", nil), ("^", .flag(false)?): output += render(inner, stack)
            case ("^", .list(let items)?) where items.isEmpty: output += render(inner, stack)
            default: break
            }
        }
        return output + rest
    }

    private static func lookup(_ key: String, _ stack: [[String: Value]]) -> Value? {
        stack.reversed().lazy.compactMap { $0[key] }.first
    }

    private static func text(_ value: Value?) -> String {
        if case .text(let text)? = value { return text }
        return ""
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// Reads the declared fields of a rendered Module.swift and Settings.swift: the literal
/// arguments of `ModuleDefinition(…)`, `RouteDefinition(…)` and `SettingDefinition(…)`.
enum SwiftDeclarations {
    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    static let stringLiteral = #""((?:[^"\\]|\\.)*)""#

    static func definition(module: String, settings: String) throws -> ModuleDefinition {
        func field(_ name: String) throws -> String {
            guard let match = try Regex(name + #":\s*"# + stringLiteral).firstMatch(in: module),
                  let value = match.output[1].substring else { throw Unreadable(description: "Module.swift states no \(name)") }
            return unescaped(value)
        }
        let routes = try module.matches(of: Regex(#"RouteDefinition\(\s*"# + stringLiteral + #"(\s*,\s*requiresLogin:\s*true)?"#))
            .map { match in
                RouteDefinition(unescaped(match.output[1].substring ?? ""), requiresLogin: match.output[2].substring != nil) { _ in
                    throw ModuleError.unsupported("never built")
                }
            }
        guard try Regex(#"settings:\s*\w+Settings\.all"#).firstMatch(in: module) != nil else {
            throw Unreadable(description: "Module.swift does not declare its settings as <Name>Settings.all")
        }
        let navigation = try module.matches(of: Regex(#"NavigationEntry\(title:\s*"# + stringLiteral + #",\s*route:\s*"# + stringLiteral
                                                     + #"(?:,\s*order:\s*(-?\d+))?(\s*,\s*requiresLogin:\s*true)?\)"#))
            .map { match in
                NavigationEntry(title: unescaped(match.output[1].substring ?? ""), route: unescaped(match.output[2].substring ?? ""),
                                order: match.output[3].substring.flatMap { Int($0) } ?? 0, requiresLogin: match.output[4].substring != nil)
            }
        return ModuleDefinition(id: try field("id"), version: try field("version"), summary: try field("summary"),
                                routes: routes, settings: try self.settings(settings), navigation: navigation)
    }

    /// The `SettingDefinition(…)`s of a Settings.swift, in the order `all` lists them.
    static func settings(_ source: String) throws -> [SettingDefinition] {
        let pattern = #"static let (\w+) = SettingDefinition\(\s*"# + stringLiteral + #",\s*kind:\s*\.(\w+),\s*default:\s*"#
            + stringLiteral + #",\s*help:\s*"# + stringLiteral + #"([^)]*)\)"#
        var declared: [String: SettingDefinition] = [:]
        for match in try source.matches(of: Regex(pattern)) {
            let name = unescaped(match.output[2].substring ?? "")
            guard let kind = SettingDefinition.Kind(rawValue: String(match.output[3].substring ?? "")) else {
                throw Unreadable(description: "setting '\(name)' has an unknown kind")
            }
            let more = String(match.output[6].substring ?? "")
            func int(_ label: String) throws -> Int? {
                try Regex(label + #":\s*(-?\d+)"#).firstMatch(in: more).flatMap { $0.output[1].substring.flatMap { Int($0) } }
            }
            func string(_ label: String) throws -> String? {
                try Regex(label + #":\s*"# + stringLiteral).firstMatch(in: more).flatMap { $0.output[1].substring.map(unescaped) }
            }
            let options = try Regex(#"options:\s*\[([^\]]*)\]"#).firstMatch(in: more).map { match in
                try String(match.output[1].substring ?? "").matches(of: Regex(stringLiteral)).map { unescaped($0.output[1].substring ?? "") }
            }
            declared[String(match.output[1].substring ?? "")] = SettingDefinition(
                name, kind: kind, default: unescaped(match.output[4].substring ?? ""), help: unescaped(match.output[5].substring ?? ""),
                minimum: try int("minimum"), maximum: try int("maximum"), options: options, emptyMeans: try string("emptyMeans"))
        }
        guard let all = try Regex(#"static let all = \[([^\]]*)\]"#).firstMatch(in: source)?.output[1].substring else {
            throw Unreadable(description: "Settings.swift has no `static let all = [...]`")
        }
        return try all.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.map { name in
            guard let setting = declared[name] else { throw Unreadable(description: "`all` lists '\(name)', which is not a SettingDefinition") }
            return setting
        }
    }

    static func unescaped(_ text: Substring) -> String {
        text.replacingOccurrences(of: #"\""#, with: "\"").replacingOccurrences(of: #"\\"#, with: #"\"#)
    }
}
