/// A module states itself twice: in Swift (`ModuleDefinition`, what it registers when it loads)
/// and in `module.json` (its `den_manifest`, what den reads from the file without loading it).
/// The host, at load, checks only what it relies on (`differences(from:)`: order is free, export
/// parameter names are documentation, exports are unchecked when the manifest lists none). A
/// module's own tests hold the JSON to more: it restates the definition word for word, so the
/// definition stays the one source of truth and the JSON a copy that cannot drift.
extension ModuleManifest {
    /// Every way this manifest fails to restate `definition` exactly, one phrase per difference;
    /// empty when it is an exact copy. Beyond `differences(from:)`: the manifest is in this
    /// DenKit's format version, lists its exports (even none, as `"exports": []`), and keeps the
    /// definition's order of routes, settings and exports and each export's signature text,
    /// parameter names included. (Settings are compared field by field there already: type,
    /// default, help, limits, options and what an empty value means.)
    public func restatementDifferences(of definition: ModuleDefinition) -> [String] {
        let stated = ModuleManifest(definition)
        var found: [String] = []
        if v != ModuleManifest.formatVersion {
            found.append("the manifest is in format version \(v), not \(ModuleManifest.formatVersion)")
        }
        found += differences(from: stated)
        let patterns = routes.map(\.pattern), definedPatterns = stated.routes.map(\.pattern)
        if patterns != definedPatterns, Set(patterns) == Set(definedPatterns) {
            found.append("the manifest lists the routes in another order: \(patterns), the definition \(definedPatterns)")
        }
        let names = settings.map(\.name), definedNames = stated.settings.map(\.name)
        if names != definedNames, Set(names) == Set(definedNames) {
            found.append("the manifest lists the settings in another order: \(names), the definition \(definedNames)")
        }
        if navigation != stated.navigation {
            found.append("the manifest's navigation \(navigation.map { "\($0.title) → \($0.route)" }) differs from the definition's \(stated.navigation.map { "\($0.title) → \($0.route)" }) (title, route, order and requiresLogin, in order)")
        }
        if !declaresExports {
            found.append("the manifest has no \"exports\" list, so den would not check them; write \"exports\": \(definition.exports.isEmpty ? "[]" : "[…]")")
        } else {
            let exportNames = exports.map(\.name), definedExports = definition.exports.map(\.name)
            if exportNames != definedExports, Set(exportNames) == Set(definedExports) {
                found.append("the manifest lists the exports in another order: \(exportNames), the definition \(definedExports)")
            }
            for export in definition.exports {
                guard let listed = exports.first(where: { $0.name == export.name }) else { continue }
                if listed.signature != export.signature {
                    found.append("export '\(export.name)' has the signature \"\(listed.signature ?? "(none)")\" in the manifest, \"\(export.signature)\" in the definition")
                }
            }
        }
        return found
    }
}
