/// The resolver's backtracking search: one run, one request.
///
/// A depth-first search over "which version of which module", with an explicit stack (a chain of
/// a thousand modules must not grow the thread's stack). Three choices keep it fast on real
/// catalogs: the next module decided is the one with the fewest versions left (a dead end shows
/// at once, not after every other choice); a candidate whose requirement leaves a dependency no
/// version at all is refused before it is tried (forward checking); and candidates come newest
/// first, installed first where they are kept, so the first complete answer is the one wanted.
/// Every tried candidate is a step; past the step limit the search stops with its own failure.
struct ResolverSearch {
    /// Dead ends kept for the failure's message; a pathological catalog meets thousands.
    static let keptReasons = 8

    /// A range some party put on a module: the user (source nil) or a chosen release.
    struct Constraint {
        let requirement: VersionRequirement
        let source: ModuleRelease?
    }

    /// One decided module: the versions it may take, the next to try, and how to take back the
    /// one tried now.
    private struct Frame {
        let id: String
        let candidates: [ModuleRelease]
        var next = 0
        var undo: Undo?
    }

    private struct Undo {
        let id: String
        var constrained: [String] = []
        var opened: [String] = []
        var viable: [(String, Int?)] = []
    }

    private let catalog: any ModuleCatalog
    private let request: ResolutionRequest
    private var candidateCache: [String: [ModuleRelease]] = [:]
    private var constraints: [String: [Constraint]] = [:]
    private var chosen: [String: ModuleRelease] = [:]
    /// Modules that need a version and have none yet.
    private var open: Set<String> = []
    /// For each open module, how many of its candidates the constraints still admit.
    private var viable: [String: Int] = [:]
    private var reasons: [String] = []
    private var steps = 0
    /// The modules that some choice of versions could put on a cycle; only these need the
    /// search for one when a candidate is tried (in most catalogs, none).
    private var mayCycle: Set<String> = []

    init(catalog: any ModuleCatalog, request: ResolutionRequest) {
        self.catalog = catalog
        self.request = request
    }

    mutating func run() -> Result<ResolutionPlan, ResolutionFailure> {
        let den = ModuleRelease.denID
        for (id, requirement) in request.requests.sorted(by: { $0.key < $1.key }) {
            if id == den {
                if !requirement.isSatisfied(by: request.denVersion) {
                    record("you asked for den \(requirement), and this den is \(request.denVersion)")
                }
                continue
            }
            constraints[id, default: []].append(Constraint(requirement: requirement, source: nil))
            open.insert(id)
        }
        if !reasons.isEmpty { return .failure(failure(.unsatisfiable)) }
        // Installed modules take part whether asked for or not: their requirements must still hold.
        for id in request.installed.keys where id != den { open.insert(id) }
        for id in open { viable[id] = viableCount(id) }
        mayCycle = modulesOnPossibleCycles(from: open)

        var stack: [Frame] = []
        decide: while let id = nextOpen() {
            let candidates = candidates(of: id).filter { admitted($0, constraints: constraints[id] ?? []) }
            if candidates.isEmpty { record(noVersion(of: id, constraints: constraints[id] ?? [])) }
            stack.append(Frame(id: id, candidates: candidates))
            // Try the top frame's next candidate; an exhausted frame hands back to the one before.
            while var frame = stack.popLast() {
                if let undo = frame.undo {
                    revert(undo)
                    frame.undo = nil
                }
                guard frame.next < frame.candidates.count else { continue }
                guard steps < request.stepLimit else { return .failure(failure(.stepLimit)) }
                let candidate = frame.candidates[frame.next]
                frame.next += 1
                steps += 1
                if let rejection = rejection(of: candidate) {
                    record(rejection)
                    stack.append(frame)
                    continue
                }
                frame.undo = apply(candidate)
                stack.append(frame)
                continue decide
            }
            return .failure(failure(.unsatisfiable))
        }
        return .success(plan())
    }

    // MARK: - Candidates

    /// Every version `id` could have, in the order to try them: newest first, except that an
    /// installed version that is kept comes first. A pin leaves only its version.
    private mutating func candidates(of id: String) -> [ModuleRelease] {
        if let cached = candidateCache[id] { return cached }
        let installed = request.installed[id]
        var byVersion: [SemanticVersion: ModuleRelease] = [:]
        for release in catalog.releases(of: id) where release.id == id && byVersion[release.version] == nil {
            byVersion[release.version] = release
        }
        // The installed file's own requirements, not the catalog's word for them.
        if let installed { byVersion[installed.version] = installed }
        var list = byVersion.values.sorted { $0.version > $1.version }
        if let pin = request.pins[id] {
            list = list.filter { $0.version == pin }
        } else if let installed, !request.update.includes(id), let index = list.firstIndex(where: { $0.version == installed.version }) {
            list.insert(list.remove(at: index), at: 0)
        }
        candidateCache[id] = list
        return list
    }

    /// Whether every constraint admits `release`. An installed module nobody constrains could take
    /// any version, but never a prerelease it does not already have: ranges keep prereleases out
    /// unless named, and an update must not be the way one gets in.
    private func admitted(_ release: ModuleRelease, constraints: [Constraint]) -> Bool {
        if constraints.isEmpty, release.version.isPrerelease, release.version != request.installed[release.id]?.version { return false }
        return constraints.allSatisfy { $0.requirement.isSatisfied(by: release.version) }
    }

    private mutating func viableCount(_ id: String) -> Int {
        let constraints = constraints[id] ?? []
        return candidates(of: id).reduce(0) { $0 + (admitted($1, constraints: constraints) ? 1 : 0) }
    }

    /// The open module with the fewest admitted versions (ties by id, so runs are repeatable).
    private func nextOpen() -> String? {
        open.min { a, b in
            let (countA, countB) = (viable[a] ?? 0, viable[b] ?? 0)
            return countA != countB ? countA < countB : a < b
        }
    }

    // MARK: - Trying a candidate

    /// Why `candidate` cannot be taken now, or nil: a `den` range this den is outside, a module
    /// already chosen at a version its range refuses, a cycle, or a dependency left with no version.
    private mutating func rejection(of candidate: ModuleRelease) -> String? {
        for (dependency, requirement) in candidate.sortedRequires {
            if dependency == ModuleRelease.denID {
                if !requirement.isSatisfied(by: request.denVersion) {
                    return "\(candidate) requires den \(requirement), and this den is \(request.denVersion)"
                }
            } else if dependency == candidate.id {
                return "\(candidate) requires itself, a dependency cycle: \(candidate.id) -> \(candidate.id)"
            } else if let other = chosen[dependency] {
                if !requirement.isSatisfied(by: other.version) {
                    return "\(candidate) requires \(dependency) \(requirement), but \(other) \(chosenBecause(other))"
                }
            } else {
                let all = (constraints[dependency] ?? []) + [Constraint(requirement: requirement, source: candidate)]
                if !candidates(of: dependency).contains(where: { admitted($0, constraints: all) }) {
                    return noVersion(of: dependency, constraints: all)
                }
            }
        }
        if let cycle = cycle(through: candidate) {
            let requirement = candidate.requires[cycle[1]].map { " \($0)" } ?? ""
            return "\(candidate) requires \(cycle[1])\(requirement), which makes a dependency cycle: " + CycleText.describe(cycle)
        }
        return nil
    }

    /// `candidate.id -> … -> candidate.id` through chosen modules, if taking it closes a cycle.
    /// Only a chosen module that requires the candidate's id can close one, so most candidates
    /// skip the search; the search is one depth-first pass from all the chosen dependencies at
    /// once, remembering each module's parent rather than copying paths.
    private func cycle(through candidate: ModuleRelease) -> [String]? {
        let target = candidate.id
        guard mayCycle.contains(target), constraints[target]?.contains(where: { $0.source != nil }) == true else { return nil }
        var parent: [String: String] = [:]
        var stack: [String] = []
        for (dependency, _) in candidate.sortedRequires where chosen[dependency] != nil && parent[dependency] == nil {
            parent[dependency] = target
            stack.append(dependency)
        }
        while let id = stack.popLast() {
            for (dependency, _) in chosen[id]?.sortedRequires ?? [] {
                if dependency == target {
                    var path = [id]
                    while let up = parent[path[path.count - 1]], up != target { path.append(up) }
                    return [target] + Array(path.reversed()) + [target]
                }
                if chosen[dependency] != nil, parent[dependency] == nil {
                    parent[dependency] = id
                    stack.append(dependency)
                }
            }
        }
        return nil
    }

    /// Every module reachable from `roots` through any candidate's requirements, and of those
    /// the ones in a group that could require one another (over all versions at once).
    private mutating func modulesOnPossibleCycles(from roots: Set<String>) -> Set<String> {
        var edges: [String: [String]] = [:]
        var pending = Array(roots)
        while let id = pending.popLast() {
            guard edges[id] == nil else { continue }
            var next: Set<String> = []
            for release in candidates(of: id) {
                for (dependency, _) in release.sortedRequires where dependency != ModuleRelease.denID && dependency != id { next.insert(dependency) }
            }
            edges[id] = next.sorted()
            pending += next.filter { edges[$0] == nil }
        }
        return Set(StronglyConnected.components(edges).joined())
    }

    private mutating func apply(_ candidate: ModuleRelease) -> Undo {
        var undo = Undo(id: candidate.id)
        chosen[candidate.id] = candidate
        open.remove(candidate.id)
        for (dependency, requirement) in candidate.sortedRequires where dependency != ModuleRelease.denID {
            constraints[dependency, default: []].append(Constraint(requirement: requirement, source: candidate))
            undo.constrained.append(dependency)
            guard chosen[dependency] == nil else { continue }
            if open.insert(dependency).inserted { undo.opened.append(dependency) }
            undo.viable.append((dependency, viable[dependency]))
            viable[dependency] = viableCount(dependency)
        }
        return undo
    }

    private mutating func revert(_ undo: Undo) {
        for (id, count) in undo.viable.reversed() { viable[id] = count }
        for id in undo.opened { open.remove(id) }
        for id in undo.constrained.reversed() { constraints[id]?.removeLast() }
        chosen[undo.id] = nil
        open.insert(undo.id)
    }

    // MARK: - The answer

    private func plan() -> ResolutionPlan {
        let order = DependencyOrder.sorted(Set(chosen.keys)) { id in
            chosen[id].map { $0.requires.keys.filter { chosen[$0] != nil } } ?? []
        }
        let steps = order.compactMap { id -> ResolutionPlan.Step? in
            guard let release = chosen[id] else { return nil }
            guard let installed = request.installed[id] else { return .init(release: release, action: .install) }
            if installed.version == release.version { return nil }
            return .init(release: release, action: release.version > installed.version ? .upgrade(from: installed.version) : .downgrade(from: installed.version))
        }
        return ResolutionPlan(steps: steps, selection: chosen.mapValues(\.version))
    }

    private func failure(_ kind: ResolutionFailure.Kind) -> ResolutionFailure {
        ResolutionFailure(kind: kind, reasons: reasons, steps: steps)
    }

    private mutating func record(_ reason: String) {
        if reasons.count < Self.keptReasons, !reasons.contains(reason) { reasons.append(reason) }
    }

    // MARK: - Words

    /// Why no version of `id` fits `constraints`: the requirement that no version meets, with the
    /// chain that led to it, or the requirements that no version meets together.
    private mutating func noVersion(of id: String, constraints: [Constraint]) -> String {
        let candidates = candidates(of: id)
        let available: String
        if let pin = request.pins[id] {
            available = candidates.isEmpty ? "\(id) is pinned to \(pin), which the catalog does not have" : "\(id) is pinned to \(pin)"
        } else {
            available = versionsText(id)
        }
        if constraints.isEmpty {
            // Only an installed module is open with no constraint, and only a pin leaves it nothing.
            return request.installed[id].map { "\($0) is installed, but \(available)" } ?? available
        }
        if let culprit = constraints.first(where: { constraint in !candidates.contains { admitted($0, constraints: [constraint]) } }) {
            return "\(need(culprit, on: id)), but \(available)"
        }
        let needs = constraints.map { need($0, on: id) }
        let together = needs.count == 2 ? "both" : "all of them"
        return EnglishList.and(needs) + ": no version of \(id) satisfies \(together) (\(available))"
    }

    /// `jogs-stats 2.0.0 requires main ^3`, led by the chain that brought jogs-stats in.
    private func need(_ constraint: Constraint, on id: String) -> String {
        guard let source = constraint.source else { return "you asked for \(id) \(constraint.requirement)" }
        return chain(to: source) + "\(source) requires \(id) \(constraint.requirement)"
    }

    /// `app 1.0.0 requires jogs-stats ^2; ` for a release some other chosen release required
    /// (the first that did), back to what the user asked for or what is installed.
    private func chain(to release: ModuleRelease) -> String {
        var links: [String] = []
        var current = release
        var seen: Set<String> = [release.id]
        while links.count < 8, let first = constraints[current.id]?.first, let source = first.source, seen.insert(source.id).inserted {
            links.append("\(source) requires \(current.id) \(first.requirement); ")
            current = source
        }
        return links.reversed().joined()
    }

    /// `is chosen, as you asked for main ^2`, or `is installed` when nothing else asked for it.
    private func chosenBecause(_ release: ModuleRelease) -> String {
        let reasons = (constraints[release.id] ?? []).map { constraint in
            constraint.source.map { "\($0) requires \(release.id) \(constraint.requirement)" } ?? "you asked for \(release.id) \(constraint.requirement)"
        }
        if reasons.isEmpty { return "is installed" }
        return "is chosen, as " + EnglishList.and(reasons)
    }

    /// `the catalog has main 1.0.0, 1.2.0 and 2.4.1`, with what is installed when that is more.
    private func versionsText(_ id: String) -> String {
        var catalogVersions = Array(Set(catalog.releases(of: id).filter { $0.id == id }.map(\.version))).sorted()
        var text: String
        if catalogVersions.isEmpty {
            text = "the catalog has no \(id)"
        } else if catalogVersions.count <= 6 {
            text = "the catalog has \(id) " + EnglishList.and(catalogVersions.map(\.description))
        } else {
            text = "the catalog has \(catalogVersions.count) versions of \(id), \(catalogVersions[0]) to \(catalogVersions.removeLast())"
        }
        if let installed = request.installed[id] { text += " (\(installed) is installed)" }
        return text
    }
}
