/// At every start: which installed modules load, in what order, and why the others do not.
///
/// A module loads after everything it requires, and only if each requirement holds: the module is
/// installed at a version in the range, `den` is in its range, and it is not in a cycle. A module
/// that fails one is not loaded, and neither is anything that requires it (its own dependency
/// would be missing), so a broken requirement never reaches a call into a module that is not there.
package struct LoadOrder: Sendable, Equatable {
    /// The ids to load, dependencies first, otherwise by id.
    package let order: [String]
    /// Id → why it is not loaded (`requires main ^2, but main 1.4.0 is installed`).
    package let notLoaded: [String: String]

    /// `unavailable`: modules present but not to be loaded, id → why, in words that follow the id
    /// (`is not selected by --plugins`): a module requiring one of them is told so.
    package init(installed: [String: ModuleRelease], denVersion: SemanticVersion, unavailable: [String: String] = [:]) {
        var reasons: [String: [String]] = [:]
        for (id, release) in installed {
            if id == ModuleRelease.denID { reasons[id, default: []].append("is named 'den', the name requirements use for den itself") }
            for (dependency, requirement) in release.sortedRequires {
                if let problem = Self.problem(dependency, requirement, of: id, installed: installed, denVersion: denVersion,
                                              unavailable: unavailable) {
                    reasons[id, default: []].append(problem)
                }
            }
        }
        for (id, reason) in Self.cycles(installed) { reasons[id, default: []].append(reason) }
        // Whatever requires a module that does not load does not load either, to the fixpoint.
        var changed = true
        while changed {
            changed = false
            for (id, release) in installed.sorted(by: { $0.key < $1.key }) where reasons[id] == nil {
                let blocked = release.sortedRequires.filter { reasons[$0.id] != nil && $0.id != ModuleRelease.denID }
                guard !blocked.isEmpty else { continue }
                reasons[id] = blocked.map { "requires \($0.id) \($0.requirement), but \($0.id) is not loaded" }
                changed = true
            }
        }
        notLoaded = reasons.mapValues { $0.joined(separator: "; ") }
        let loadable = Set(installed.keys).subtracting(reasons.keys)
        order = DependencyOrder.sorted(loadable) { installed[$0].map { Array($0.requires.keys) } ?? [] }
    }

    private static func problem(_ dependency: String, _ requirement: VersionRequirement, of id: String,
                                installed: [String: ModuleRelease], denVersion: SemanticVersion,
                                unavailable: [String: String]) -> String? {
        if dependency == ModuleRelease.denID {
            return requirement.isSatisfied(by: denVersion) ? nil : "requires den \(requirement), and this den is \(denVersion)"
        }
        if dependency == id { return "requires itself, a dependency cycle: \(id) -> \(id)" }
        guard let present = installed[dependency] else {
            return "requires \(dependency) \(requirement), but \(dependency) \(unavailable[dependency] ?? "is not installed")"
        }
        return requirement.isSatisfied(by: present.version) ? nil : "requires \(dependency) \(requirement), but \(present) is installed"
    }

    /// For each module on a cycle of requirements between installed modules (itself aside, which
    /// `problem` names), a shortest such cycle through it: `a -> b -> a`. Tarjan's strongly
    /// connected components first, so modules on no cycle cost nothing more; then, inside each
    /// component, a breadth-first search per member (one for all members of a huge component).
    static func cycles(_ installed: [String: ModuleRelease]) -> [(String, String)] {
        var edges: [String: [String]] = [:]
        for (id, release) in installed {
            edges[id] = release.sortedRequires.map(\.id).filter { $0 != id && installed[$0] != nil }
        }
        var found: [(String, String)] = []
        for component in StronglyConnected.components(edges) {
            let members = Set(component)
            let sorted = component.sorted()
            if sorted.count > 64, let cycle = shortestCycle(through: sorted[0], edges: edges, within: members) {
                let text = "is in a dependency cycle of \(sorted.count) modules, among them " + CycleText.describe(cycle)
                found += sorted.map { ($0, text) }
                continue
            }
            for id in sorted {
                if let cycle = shortestCycle(through: id, edges: edges, within: members) {
                    found.append((id, "is in a dependency cycle: " + CycleText.describe(cycle)))
                }
            }
        }
        return found
    }

    /// Breadth first from `id`'s dependencies back to `id`, inside `members`: a shortest cycle.
    private static func shortestCycle(through id: String, edges: [String: [String]], within members: Set<String>) -> [String]? {
        var previous: [String: String] = [:]
        var queue: [String] = []
        for next in edges[id] ?? [] where members.contains(next) && previous[next] == nil {
            previous[next] = id
            queue.append(next)
        }
        var head = 0
        search: while head < queue.count {
            let current = queue[head]
            head += 1
            for next in edges[current] ?? [] where members.contains(next) && previous[next] == nil {
                previous[next] = current
                if next == id { break search }
                queue.append(next)
            }
        }
        guard var step = previous[id] else { return nil }
        var backwards: [String] = []
        while step != id {
            backwards.append(step)
            step = previous[step] ?? id
        }
        return [id] + Array(backwards.reversed()) + [id]
    }
}
