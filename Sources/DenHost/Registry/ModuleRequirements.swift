import DenCatalog
import DenKit

/// A manifest's `requires` as den holds a module to it (docs/CATALOG.md, "Requirements"): at
/// start before the module's code runs, at a hot swap, and at each call of another module's export.
package enum ModuleRequirements {
    /// The manifest's requirements, parsed; a range that does not parse is left out here: the
    /// start refuses the module with the parse error first (`problems`).
    package static func parsed(_ manifest: ModuleManifest) -> [String: VersionRequirement] {
        guard !manifest.requires.isEmpty else { return [:] }
        var parsed: [String: VersionRequirement] = [:]
        for (id, text) in manifest.requires { parsed[id] = try? VersionRequirement(parsing: text) }
        return parsed
    }

    /// The manifest as a release the load order reasons about, or why it cannot be one.
    package static func release(_ manifest: ModuleManifest) -> Result<ModuleRelease, ReleaseParseError> {
        do { return .success(try ModuleRelease(id: manifest.id, version: manifest.version, requires: manifest.requires)) } catch {
            return .failure(error)
        }
    }

    /// Why `manifest`'s module may not join `registry`'s active modules now, or nil: a
    /// requirement den cannot read, or the first one unmet.
    package static func problem(_ manifest: ModuleManifest, in registry: ModuleRegistry, denVersion: SemanticVersion) -> String? {
        guard !manifest.requires.isEmpty else { return nil }
        if case .failure(let error) = release(manifest) { return "has a version or requirement den cannot read (\(error))" }
        return registry.unmetRequirement(parsed(manifest), denVersion: denVersion)
    }

    /// Why `version` of module `id` is not in `range`, or nil when it is.
    static func problem(_ id: String, _ range: VersionRequirement, version: String?) -> String? {
        guard let version else { return "requires \(id) \(range), but \(id) tells no version" }
        guard let parsed = SemanticVersion(version) else {
            return "requires \(id) \(range), but \(id)'s version '\(version)' is not a SemVer version"
        }
        return range.isSatisfied(by: parsed) ? nil : "requires \(id) \(range), but \(id) \(version) is loaded"
    }
}
