import DenHost
import DenSupport
import FoundationEssentials

/// What one changed plugin file led to; front-ends show it (terminal line, browser banner).
public struct HotSwapReport: Sendable, CustomStringConvertible {
    public enum Outcome: Sendable, Equatable {
        /// The new version serves; every live instance moved to it.
        case swapped
        /// A plugin file that served nothing before now serves a module.
        case installed
        /// Refused as a whole: the old version (if any) keeps serving.
        case refused(HotSwapError)
        /// Nothing to do: the same version is loaded already, or the module is not selected.
        case unchanged(String)
    }

    package var file: URL
    package var moduleID: String?
    public var outcome: Outcome
    /// The serving version's generation after this change.
    package var generation: Int?
    package var routesAdded: [String] = []
    package var routesDropped: [String] = []
    /// Live instances moved to the new version, and how many kept their state.
    package var instancesSwapped = 0
    public var statesKept = 0
    /// Screens built fresh, with why their state did not come across.
    package var rebuiltFresh: [String] = []
    /// From "the file is stable" to "the new version serves" (load, checks, instances, switch).
    package var duration: Duration = .zero

    package var succeeded: Bool {
        switch outcome {
        case .swapped, .installed: true
        case .refused, .unchanged: false
        }
    }

    package var error: HotSwapError? {
        if case .refused(let error) = outcome { error } else { nil }
    }

    public var description: String {
        let name = moduleID.map { "module '\($0)'" } ?? file.lastPathComponent
        let took = NumberText.fixed(Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000, places: 1) + " ms"
        switch outcome {
        case .swapped:
            var parts = ["\(name) swapped to generation \(generation ?? 0) in \(took): \(instancesSwapped) live screen(s), \(statesKept) kept their state"]
            if !routesAdded.isEmpty { parts.append("routes added: \(routesAdded.joined(separator: ", "))") }
            if !routesDropped.isEmpty { parts.append("routes dropped: \(routesDropped.joined(separator: ", "))") }
            if !rebuiltFresh.isEmpty { parts.append("started fresh: \(rebuiltFresh.joined(separator: "; "))") }
            return ModuleText.singleLine(parts.joined(separator: "; "), limit: 2000)
        case .installed:
            return ModuleText.singleLine("\(name) loaded from \(file.lastPathComponent) in \(took)")
        case .refused(let error):
            return error.description
        case .unchanged(let why):
            return ModuleText.singleLine("\(file.lastPathComponent): \(why)")
        }
    }
}
