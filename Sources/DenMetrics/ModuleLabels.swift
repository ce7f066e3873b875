import DenHost
import Synchronization

/// Each module's version and hosting for its metrics' labels, derived from the registry again
/// whenever it changed (a hot swap makes a new version's series; the old one's keep their counts).
final class ModuleLabels: Sendable {
    struct Labels: Sendable {
        var version: String
        /// "in-process" or "isolated".
        var hosting: String
        /// The registry revision these were read at: part of a meter's key, so that a swap
        /// starts the new version's series.
        var revision: Int
    }

    private struct State {
        var revision = -1
        var byModule: [String: Labels] = [:]
    }

    private let registry = Mutex<ModuleRegistry?>(nil)
    private let state = Mutex(State())

    func attach(_ registry: ModuleRegistry) {
        self.registry.withLock { $0 = registry }
    }

    func labels(of moduleID: String) -> Labels {
        guard let registry = registry.withLock({ $0 }) else { return Labels(version: "", hosting: "in-process", revision: 0) }
        let revision = registry.revision.load(ordering: .acquiring)
        if let known = state.withLock({ $0.revision == revision ? $0.byModule[moduleID] : nil }) { return known }
        var byModule: [String: Labels] = [:]
        for record in registry.plugins where record.isActive {
            guard let id = record.id else { continue }
            byModule[id] = Labels(version: record.version ?? "", hosting: record.isolated == nil ? "in-process" : "isolated", revision: revision)
        }
        // An id no active module has (a module removed while its screens live) is kept too, so
        // its next call does not read the registry again.
        let labels = byModule[moduleID] ?? Labels(version: "", hosting: "in-process", revision: revision)
        byModule[moduleID] = labels
        state.withLock { $0 = State(revision: revision, byModule: byModule) }
        return labels
    }
}
