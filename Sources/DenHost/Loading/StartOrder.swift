import DenCatalog
import DenKit
import DenModuleFiles
import DenSupport

/// One plugin file a start will load, with its manifest when den could read it without loading it.
struct PlannedModule {
    var candidate: PluginDiscovery.Candidate
    var stamp: FileStamp?
    var manifest: ModuleManifest?
}

/// The order a start loads modules in when any of them requires another (docs/CATALOG.md,
/// "Requirements"): dependencies first, and a module whose requirement is unmet never runs.
/// Modules without a manifest come before (den learns their id and version only by loading
/// them, and they require nothing); `arrange` then orders the rest with `LoadOrder`.
enum StartOrder {
    /// Whether any planned module requires another: otherwise the start keeps the folders' order
    /// and pays nothing for this.
    static func isNeeded(_ planned: [PlannedModule]) -> Bool {
        planned.contains { !($0.manifest?.requires.isEmpty ?? true) }
    }

    /// The modules with a manifest in the order to load them, and those not to load, each with
    /// why (a clause after "it": `requires main ^2, but main 1.4.0 is installed`).
    /// `loaded`: the modules without a manifest, loaded already. `unavailable`: ids present but
    /// not to be loaded, with why (`is not selected by --plugins`).
    static func arrange(_ planned: [PlannedModule], loaded: [(id: String, version: String?)], unavailable: [String: String],
                        denVersion: SemanticVersion) -> (ordered: [PlannedModule], refused: [(PlannedModule, String)]) {
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
        var byID: [String: [PlannedModule]] = [:]
        var unordered: [PlannedModule] = [] // no requirements and no SemVer version: order does not matter
        var unorderedIDs = Set<String>()
        var refused: [(PlannedModule, String)] = []
        for module in planned {
            guard let manifest = module.manifest else { continue }
            if loadedIDs.contains(manifest.id) || unorderedIDs.contains(manifest.id) {
                unordered.append(module) // refused as a second file of its id when it loads
                continue
            }
            if byID[manifest.id] != nil {
                byID[manifest.id]!.append(module)
                continue
            }
            switch ModuleRequirements.release(manifest) {
            case .success(let release):
                byID[manifest.id] = [module]
                installed[manifest.id] = release
            case .failure(let error) where manifest.requires.isEmpty:
                unavailable[manifest.id] = "is version '\(manifest.version)', not a SemVer version that a range can hold (\(error))"
                unorderedIDs.insert(manifest.id)
                unordered.append(module)
            case .failure(let error):
                refused.append((module, "has a version or requirement den cannot read (\(error))"))
                unavailable[manifest.id] = "is not loaded either"
            }
        }
        let order = LoadOrder(installed: installed, denVersion: denVersion, unavailable: unavailable)
        // An id refused keeps out only its first file; any other file of it loads last, held to
        // its own requirements as it loads.
        var others: [PlannedModule] = []
        for (id, reason) in order.notLoaded.sorted(by: { $0.key < $1.key }) {
            guard let files = byID[id], let first = files.first else { continue }
            refused.append((first, reason))
            others += files.dropFirst()
        }
        return (unordered + order.order.flatMap { byID[$0] ?? [] } + others, refused)
    }
}
