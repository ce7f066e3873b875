/// `den modules why <id>`: why a module is installed — the user asked for it by name, and/or
/// chains of installed modules lead to it, each from a module nothing else requires (or one the
/// user asked for) down to one that requires it (`jogs-stats 1.0.0 requires main ^1.2`).
package struct Why: Sendable, Equatable {
    /// One requirement between installed modules.
    package struct Link: Sendable, Equatable, CustomStringConvertible {
        package let requirer: ModuleRelease
        package let required: String
        package let requirement: VersionRequirement

        package var description: String { "\(requirer) requires \(required) \(requirement)" }
    }

    package let id: String
    package let isInstalled: Bool
    /// The user installed it by name (`den modules install main`).
    package let requestedByUser: Bool
    /// Each from the top down; the last link requires `id`. Sorted, at most `limit`.
    package let chains: [[Link]]
    /// More chains exist than were listed (a lattice of requirements has very many).
    package let isTruncated: Bool

    /// - Parameter requestedByUser: the ids the user installed by name.
    package init(id: String, installed: [String: ModuleRelease], requestedByUser: Set<String>, limit: Int = 16) {
        self.id = id
        isInstalled = installed[id] != nil
        self.requestedByUser = requestedByUser.contains(id)
        // Who requires whom, backwards: id → the installed releases that require it.
        var requirers: [String: [Link]] = [:]
        for (_, release) in installed.sorted(by: { $0.key < $1.key }) {
            for (required, requirement) in release.sortedRequires where required != release.id {
                requirers[required, default: []].append(Link(requirer: release, required: required, requirement: requirement))
            }
        }
        var chains: [[Link]] = []
        var truncated = false
        // Depth first up the requirers; a chain stops at a module the user asked for, one nothing
        // requires, or one whose requirers are all on the chain already (a cycle).
        func climb(_ below: [Link], onPath: Set<String>) {
            guard !truncated else { return }
            let top = below[0].requirer.id
            let above = requestedByUser.contains(top) ? [] : (requirers[top] ?? []).filter { !onPath.contains($0.requirer.id) }
            if above.isEmpty {
                if chains.count == limit { truncated = true } else { chains.append(below) }
                return
            }
            for link in above { climb([link] + below, onPath: onPath.union([link.requirer.id])) }
        }
        for link in requirers[id] ?? [] { climb([link], onPath: [id, link.requirer.id]) }
        self.chains = chains
        isTruncated = truncated
    }

    /// What the command prints, a sentence a line.
    package var lines: [String] {
        guard isInstalled else { return ["\(id) is not installed"] }
        var lines: [String] = []
        if requestedByUser { lines.append("you installed \(id) by name") }
        lines += chains.map { $0.map(\.description).joined(separator: "; ") }
        if isTruncated { lines.append("… and more chains") }
        if lines.isEmpty { lines.append("nothing requires \(id), and it was not installed by name") }
        return lines
    }
}
