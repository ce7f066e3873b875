import DenKit

/// A manifest's `requires` as den holds a module to it (docs/CATALOG.md, "Requirements"): at
/// start before the module's code runs, at a hot swap, and at each call of another module's export.
package enum ManifestRequirements {
    /// The manifest's requirements, parsed; a range that does not parse is left out here: the
    /// start refuses the module with the parse error first (`release`).
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

    /// Why `version` of module `id` (as it registered) is not in `range`, or nil when it is.
    package static func problem(_ id: String, _ range: VersionRequirement, version: String?) -> String? {
        guard let version else { return "requires \(id) \(range), but \(id) tells no version" }
        guard let parsed = SemanticVersion(version) else {
            return "requires \(id) \(range), but \(id)'s version '\(version)' is not a SemVer version"
        }
        return range.isSatisfied(by: parsed) ? nil : "requires \(id) \(range), but \(id) \(version) is loaded"
    }

    /// Whether any of `manifests` requires something: otherwise a start keeps the folders' order
    /// and pays nothing for requirements.
    package static func anyRequire(_ manifests: some Sequence<ModuleManifest?>) -> Bool {
        manifests.contains { !($0?.requires.isEmpty ?? true) }
    }

    /// The order a start loads modules in when any of them requires another: dependencies
    /// first, and a module whose requirement is unmet never runs. `items` are the files with a
    /// manifest, in the folders' order; `loaded` the modules without a manifest, loaded already
    /// (den learns their id and version only by loading them, and they require nothing);
    /// `unavailable` ids present but not to be loaded, with why (`is not selected by --plugins`).
    /// Returns the items to load, in order, and those not to load, each with why (a clause
    /// after "it": `requires main ^2, but main 1.4.0 is installed`).
    package static func arrange<Item>(_ items: [(item: Item, manifest: ModuleManifest)], loaded: [(id: String, version: String?)],
                                      unavailable: [String: String], denVersion: SemanticVersion)
        -> (ordered: [Item], refused: [(Item, String)]) {
        var unavailable = unavailable
        var installed: [String: ModuleRelease] = [:]
        for module in loaded {
            if let version = module.version.flatMap(SemanticVersion.init) {
                installed[module.id] = ModuleRelease(id: module.id, version: version)
            } else {
                unavailable[module.id] = "is version '\(module.version ?? "")', not a SemVer version that a range can hold"
            }
        }
        // Files of one id load together at its place in the order, the folders' order among them:
        // the first that loads serves, as at any start (a bundled file the trust policy refuses,
        // then yours). The first file's manifest speaks for the id.
        let loadedIDs = Set(loaded.map(\.id))
        var byID: [String: [Item]] = [:]
        var unordered: [Item] = [] // no requirements and no SemVer version: order does not matter
        var unorderedIDs = Set<String>()
        var refused: [(Item, String)] = []
        for (item, manifest) in items {
            if loadedIDs.contains(manifest.id) || unorderedIDs.contains(manifest.id) {
                unordered.append(item) // refused as a second file of its id when it loads
                continue
            }
            if byID[manifest.id] != nil {
                byID[manifest.id]!.append(item)
                continue
            }
            switch release(manifest) {
            case .success(let release):
                byID[manifest.id] = [item]
                installed[manifest.id] = release
            case .failure(let error) where manifest.requires.isEmpty:
                unavailable[manifest.id] = "is version '\(manifest.version)', not a SemVer version that a range can hold (\(error))"
                unorderedIDs.insert(manifest.id)
                unordered.append(item)
            case .failure(let error):
                refused.append((item, "has a version or requirement den cannot read (\(error))"))
                unavailable[manifest.id] = "is not loaded either"
            }
        }
        let order = LoadOrder(installed: installed, denVersion: denVersion, unavailable: unavailable)
        // An id refused keeps out only its first file; any other file of it loads last, held to
        // its own requirements as it loads.
        var others: [Item] = []
        for (id, reason) in order.notLoaded.sorted(by: { $0.key < $1.key }) {
            guard let files = byID[id], let first = files.first else { continue }
            refused.append((first, reason))
            others += files.dropFirst()
        }
        // The folders' order, each module after what it requires (depth first, so a module
        // nothing requires keeps its place): adding one module with `requires` moves no other.
        var ordered: [Item] = []
        ordered.reserveCapacity(items.count)
        var placed = Set<String>()
        for (_, manifest) in items where order.notLoaded[manifest.id] == nil && byID[manifest.id] != nil {
            var stack: [(id: String, dependencies: [String])] = []
            func push(_ id: String) {
                guard placed.insert(id).inserted else { return }
                stack.append((id, (installed[id]?.sortedRequires.map(\.id) ?? []).filter { byID[$0] != nil }.reversed()))
            }
            push(manifest.id)
            while let top = stack.last {
                if let next = top.dependencies.last {
                    stack[stack.count - 1].dependencies.removeLast()
                    push(next)
                } else {
                    stack.removeLast()
                    ordered += byID[top.id] ?? []
                }
            }
        }
        return (unordered + ordered + others, refused)
    }
}
