import DenRouting
import DenKit
import DenSupport
import FoundationEssentials

/// Turns the bytes of a `den_manifest` symbol into a checked `ModuleManifest`, or says what is
/// wrong with them in words a module author can act on. Nothing here trusts the bytes: they come
/// from a file nobody has vetted.
package enum ManifestDecoding {
    /// The checked manifest, or the first problem found.
    package static func decode(_ bytes: [UInt8]) -> Result<ModuleManifest, ManifestProblem> {
        // A C string ends at its NUL; a Rust `[u8; N]` may carry none.
        let text = bytes.prefix { $0 != 0 }
        // `const char *den_manifest = "…"` exports the pointer, not the text: 8 bytes, no `{`.
        if bytes.count == MemoryLayout<UnsafeRawPointer>.size, text.first(where: { $0 != 0x20 && $0 != 0x0A }) != UInt8(ascii: "{") {
            return .failure(ManifestProblem("it is \(bytes.count) bytes that are not JSON: declared as a pointer? `den_manifest` must be a char array (DEN_DEFINE_MANIFEST in den_module.h)"))
        }
        guard text.count <= ModuleManifest.maximumBytes else {
            return .failure(ManifestProblem("it is longer than \(ModuleManifest.maximumBytes / 1024) KiB"))
        }
        guard !text.isEmpty else { return .failure(ManifestProblem("it is empty")) }
        guard UTF8Text.string(validating: text) != nil else { return .failure(ManifestProblem("it is not valid UTF-8")) }
        let data = Data(text)
        let (parsed, findings) = JSONPreflight.read(data)
        if findings.tooDeep { return .failure(ManifestProblem(JSONPreflight.tooDeep("it is"))) }
        if findings.hasNull { return .failure(ManifestProblem(JSONPreflight.holdsNull("it contains"))) }
        let manifest: ModuleManifest
        do {
            manifest = try WireFormat.decode(ModuleManifest.self, from: data, parsed: parsed)
        } catch {
            return .failure(ManifestProblem("it is not a valid manifest document (\(WireFormat.describe(error)))"))
        }
        if let problem = problem(in: manifest) { return .failure(ManifestProblem(problem)) }
        return .success(manifest)
    }

    /// The first rule the decoded manifest breaks (the same rules the registrar applies).
    package static func problem(in manifest: ModuleManifest) -> String? {
        guard manifest.v == ModuleManifest.formatVersion else {
            return "its format version \"v\": \(manifest.v) is not the \(ModuleManifest.formatVersion) this den reads"
        }
        guard ModuleIdentity.isValidID(manifest.id) else {
            return "module id '\(ModuleText.singleLine(manifest.id, limit: 80))' is not valid (\(ModuleIdentity.idRule))"
        }
        guard ModuleIdentity.isValidVersion(manifest.version) else {
            return "version '\(ModuleText.singleLine(manifest.version, limit: 80))' is not valid (\(ModuleIdentity.versionRule))"
        }
        // A set only for many routes: hashing cost more than comparing a module's few patterns.
        var seen = manifest.routes.count > 16 ? Set<String>(minimumCapacity: manifest.routes.count) : nil
        for (index, route) in manifest.routes.enumerated() {
            // Plain literals ("about") are checked by their bytes; anything else is parsed.
            do {
                if !RoutePatternParser.isPlainLiteralPattern(route.pattern) { _ = try RoutePattern(route.pattern) }
            } catch {
                return "route pattern '\(ModuleText.singleLine(route.pattern, limit: 200))': \(error)"
            }
            let repeated = seen?.insert(route.pattern).inserted == false
                || (seen == nil && manifest.routes[..<index].contains { $0.pattern == route.pattern })
            guard !repeated else { return "route '\(ModuleText.singleLine(route.pattern, limit: 200))' is listed twice" }
        }
        if let problem = SettingsDeclaration(settings: manifest.settings).problem { return problem }
        var exportNames = Set<String>()
        for export in manifest.exports {
            guard ExportName.isValid(export.name) else {
                return "export name '\(ModuleText.singleLine(export.name, limit: 80))' is not valid (\(ExportName.rule))"
            }
            guard exportNames.insert(export.name).inserted else { return "export '\(export.name)' is listed twice" }
            // A signature outside the notation (a C declaration, as the first manifests were
            // told to write) is documentation: compared by name only (ModuleManifest.differences).
        }
        if let problem = manifest.permissions.problem { return problem }
        for (required, range) in manifest.requires {
            guard required == "den" || ModuleIdentity.isValidID(required) else {
                return "requires '\(ModuleText.singleLine(required, limit: 80))', which is not a module id (\(ModuleIdentity.idRule)) nor den"
            }
            guard required != manifest.id else { return "requires itself ('\(required)')" }
            guard !range.allSatisfy(\.isWhitespace), range.utf8.count <= 200 else {
                return "requires \(required) with the range '\(ModuleText.singleLine(range, limit: 80))'; give a version range such as ^1.2 or >=1.1 <2 (at most 200 characters)"
            }
        }
        return navigationProblem(in: manifest)
    }

    /// An entry the shell could not draw or follow: too many, a bad title, or a route that none
    /// of the module's own patterns serves (an entry never leads into another module).
    package static func navigationProblem(in manifest: ModuleManifest) -> String? {
        guard !manifest.navigation.isEmpty else { return nil }
        if manifest.navigation.count > NavigationEntry.maximumCount {
            return "it lists \(manifest.navigation.count) navigation entries; a module may contribute at most \(NavigationEntry.maximumCount)"
        }
        var table = RouteTable<Int>()
        for (index, route) in manifest.routes.enumerated() { try? table.add(route.pattern, owner: manifest.id, value: index) }
        let router = table.compile()
        for entry in manifest.navigation {
            if let problem = entry.problem { return ModuleText.singleLine(problem, limit: 300) }
            guard case .success = router.resolve(entry.route) else {
                return "navigation entry '\(ModuleText.singleLine(entry.title, limit: 60))' opens '\(ModuleText.singleLine(entry.route, limit: 200))', which none of the module's own routes serves; name one of its routes"
            }
        }
        return nil
    }
}

/// What is wrong with a manifest; the loader wraps it in a `PluginLoadError`.
package struct ManifestProblem: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
