@testable import DenCatalog
import Testing

@Suite("Resolving: the newest versions every requirement admits, backtracking when needed, failures that name the chain")
struct DependencyResolverSpec {
    /// A catalog from (id, version, requires) rows.
    private func catalog(_ rows: [(String, String, [String: String])]) throws -> CatalogSnapshot {
        CatalogSnapshot(try rows.map { try release($0.0, $0.1, $0.2) })
    }

    private func resolve(_ catalog: CatalogSnapshot, _ requests: [String: String], den: String = "1.4.0",
                         installed: [ModuleRelease] = [], pins: [String: String] = [:], update: UpdatePolicy = .none,
                         stepLimit: Int = DependencyResolver.defaultStepLimit) throws -> Result<ResolutionPlan, ResolutionFailure> {
        let request = ResolutionRequest(requests: try requests.mapValues(range), denVersion: try version(den), installed: installedSet(installed),
                                        pins: try pins.mapValues(version), update: update, stepLimit: stepLimit)
        return DependencyResolver(catalog: catalog).resolve(request)
    }

    private func plan(_ result: Result<ResolutionPlan, ResolutionFailure>) throws -> ResolutionPlan {
        switch result {
        case let .success(plan): return plan
        case let .failure(failure):
            Issue.record("expected a plan, got: \(failure)")
            throw failure
        }
    }

    private func failure(_ result: Result<ResolutionPlan, ResolutionFailure>) throws -> ResolutionFailure {
        switch result {
        case let .success(plan):
            Issue.record("expected a failure, got: \(plan.steps)")
            throw PlanInsteadOfFailure()
        case let .failure(failure): return failure
        }
    }

    private struct PlanInsteadOfFailure: Error {}

    private func steps(_ plan: ResolutionPlan) -> [String] { plan.steps.map(\.description) }

    static let mainVersions: [(String, String, [String: String])] = [
        ("main", "1.0.0", [:]), ("main", "1.2.0", [:]), ("main", "2.4.1", [:]), ("main", "3.0.0-beta.1", [:]),
    ]

    @Test("the newest version the range admits, with what it requires, dependencies first")
    func newestWithDependencies() throws {
        let catalog = try catalog(Self.mainVersions + [
            ("jogs-stats", "1.0.0", ["main": "^1.2"]), ("jogs-stats", "1.1.0", ["main": "^1.2", "charts": "~0.3"]),
            ("charts", "0.3.1", [:]), ("charts", "0.3.4", [:]), ("charts", "0.4.0", [:]),
        ])
        let plan = try plan(try resolve(catalog, ["jogs-stats": "^1"]))
        #expect(steps(plan) == ["install charts 0.3.4", "install main 1.2.0", "install jogs-stats 1.1.0"])
        #expect(plan.selection.mapValues(\.description) == ["charts": "0.3.4", "main": "1.2.0", "jogs-stats": "1.1.0"])
    }

    @Test("a prerelease is chosen only when the range names its line")
    func prereleases() throws {
        let catalog = try catalog(Self.mainVersions)
        #expect(try steps(plan(resolve(catalog, ["main": "*"]))) == ["install main 2.4.1"])
        #expect(try steps(plan(resolve(catalog, ["main": ">=3.0.0-beta.1"]))) == ["install main 3.0.0-beta.1"])
    }

    @Test("backtracking: the newest version needs what is not there, so an older one is chosen")
    func backtracksToOlder() throws {
        let catalog = try catalog([
            ("a", "1.0.0", ["b": "^1"]), ("a", "1.5.0", ["b": "^1"]), ("a", "2.0.0", ["b": "^2"]),
            ("b", "1.0.0", [:]), ("b", "1.3.0", [:]),
        ])
        #expect(try steps(plan(resolve(catalog, ["a": "*"]))) == ["install b 1.3.0", "install a 1.5.0"])
    }

    @Test("backtracking past a conflict found only deeper: a 2 → b 2 → c ^2, but a 2 itself needs c ^1")
    func backtracksDeepConflict() throws {
        let catalog = try catalog([
            ("a", "1.0.0", ["b": "^1", "c": "^1"]), ("a", "2.0.0", ["b": "*", "c": "^1"]),
            ("b", "1.0.0", ["c": "^1"]), ("b", "2.0.0", ["c": "^2"]),
            ("c", "1.0.0", [:]), ("c", "2.0.0", [:]),
        ])
        #expect(try steps(plan(resolve(catalog, ["a": "*"]))) == ["install c 1.0.0", "install b 1.0.0", "install a 2.0.0"])
    }

    @Test("two requests that pull one module two ways meet on a version both admit")
    func sharedDependency() throws {
        let catalog = try catalog(Self.mainVersions + [
            ("x", "1.0.0", ["main": ">=1.1"]), ("y", "1.0.0", ["main": "<2"]),
        ])
        #expect(try steps(plan(resolve(catalog, ["x": "*", "y": "*"]))) == ["install main 1.2.0", "install x 1.0.0", "install y 1.0.0"])
    }

    @Test("unsatisfiable: the message names the requirement and what the catalog has")
    func unsatisfiableNamesTheChain() throws {
        let catalog = try catalog(Self.mainVersions + [("jogs-stats", "2.0.0", ["main": "^3"])])
        let failure = try failure(try resolve(catalog, ["jogs-stats": "^2"]))
        #expect(failure.kind == .unsatisfiable)
        #expect(failure.description == "jogs-stats 2.0.0 requires main ^3, but the catalog has main 1.0.0, 1.2.0, 2.4.1 and 3.0.0-beta.1")
    }

    @Test("the chain goes back to what was asked for: app → jogs-stats → main")
    func longerChain() throws {
        let catalog = try catalog([
            ("main", "1.0.0", [:]), ("main", "1.2.0", [:]), ("main", "2.4.1", [:]),
            ("app", "1.0.0", ["jogs-stats": "^2"]), ("jogs-stats", "2.0.0", ["main": "^3"]),
        ])
        let failure = try failure(try resolve(catalog, ["app": "*"]))
        #expect(failure.description == "app 1.0.0 requires jogs-stats ^2; jogs-stats 2.0.0 requires main ^3, but the catalog has main 1.0.0, 1.2.0 and 2.4.1")
    }

    @Test("every version failing: each one's reason is given")
    func everyVersionFails() throws {
        let catalog = try catalog(Self.mainVersions + [
            ("jogs-stats", "1.0.0", ["den": ">=2"]), ("jogs-stats", "2.0.0", ["main": "^3"]),
        ])
        let failure = try failure(try resolve(catalog, ["jogs-stats": "*"]))
        #expect(failure.reasons == ["jogs-stats 2.0.0 requires main ^3, but the catalog has main 1.0.0, 1.2.0, 2.4.1 and 3.0.0-beta.1",
                                    "jogs-stats 1.0.0 requires den >=2, and this den is 1.4.0"])
    }

    @Test("requirements that no version meets together are named together")
    func jointConflict() throws {
        let catalog = try catalog(Self.mainVersions + [("x", "1.0.0", ["main": "^1"]), ("y", "1.0.0", ["main": "^2"])])
        #expect(try failure(resolve(catalog, ["x": "*", "y": "*"])).description
            == "x 1.0.0 requires main ^1 and y 1.0.0 requires main ^2: no version of main satisfies both (the catalog has main 1.0.0, 1.2.0, 2.4.1 and 3.0.0-beta.1)")
    }

    @Test("a requirement that a version already chosen does not meet names why it was chosen")
    func conflictWithChosen() throws {
        let catalog = try catalog(Self.mainVersions + [("x", "1.0.0", ["main": "^1"])])
        #expect(try failure(resolve(catalog, ["main": "^2", "x": "*"])).description
            == "x 1.0.0 requires main ^1, but main 2.4.1 is chosen, as you asked for main ^2")
    }

    @Test("a request for a module the catalog lacks, or a version it lacks")
    func missing() throws {
        let catalog = try catalog(Self.mainVersions)
        #expect(try failure(resolve(catalog, ["nothing": "*"])).description == "you asked for nothing *, but the catalog has no nothing")
        #expect(try failure(resolve(catalog, ["main": "^4"])).description
            == "you asked for main ^4, but the catalog has main 1.0.0, 1.2.0, 2.4.1 and 3.0.0-beta.1")
    }

    @Test("den: a range on den is checked against this den, never installed; an older version fits an older den")
    func denRequirement() throws {
        let catalog = try catalog([("stats", "1.0.0", ["den": ">=1.1 <2"]), ("stats", "2.0.0", ["den": ">=2"]), ("den", "9.0.0", [:])])
        #expect(try steps(plan(resolve(catalog, ["stats": "*"], den: "1.4.0"))) == ["install stats 1.0.0"])
        #expect(try steps(plan(resolve(catalog, ["stats": "*"], den: "2.1.0"))) == ["install stats 2.0.0"])
        #expect(try failure(resolve(catalog, ["stats": "*"], den: "1.0.0")).reasons
            == ["stats 2.0.0 requires den >=2, and this den is 1.0.0", "stats 1.0.0 requires den >=1.1 <2, and this den is 1.0.0"])
        #expect(try failure(resolve(catalog, ["den": ">=2"])).description == "you asked for den >=2, and this den is 1.4.0")
        #expect(try plan(resolve(catalog, ["den": "^1"])).steps.isEmpty, "a satisfied den request installs nothing")
    }

    @Test("a cycle is refused, naming it")
    func cycle() throws {
        let catalog = try catalog([("a", "1.0.0", ["b": "^1"]), ("b", "1.0.0", ["c": "^1"]), ("c", "1.0.0", ["a": "^1"])])
        let failure = try failure(try resolve(catalog, ["a": "*"]))
        #expect(failure.kind == .unsatisfiable)
        #expect(failure.description.contains("a dependency cycle: c -> a -> b -> c"), "\(failure)")
        let selfLoop = try self.catalog([("a", "1.0.0", ["a": "^1"])])
        #expect(try self.failure(resolve(selfLoop, ["a": "*"])).description == "a 1.0.0 requires itself, a dependency cycle: a -> a")
    }

    @Test("a cycle is stepped around when an older version has none")
    func cycleAvoided() throws {
        let catalog = try catalog([("a", "1.0.0", ["b": "*"]), ("b", "1.0.0", [:]), ("b", "2.0.0", ["a": "^1"])])
        #expect(try steps(plan(resolve(catalog, ["a": "*"]))) == ["install b 1.0.0", "install a 1.0.0"])
    }

    @Test("a pin is the only version its module may have")
    func pins() throws {
        let catalog = try catalog(Self.mainVersions + [("x", "1.0.0", ["main": "*"])])
        #expect(try steps(plan(resolve(catalog, ["x": "*"], pins: ["main": "1.2.0"]))) == ["install main 1.2.0", "install x 1.0.0"])
        #expect(try failure(resolve(catalog, ["main": "^2"], pins: ["main": "1.2.0"])).description
            == "you asked for main ^2, but main is pinned to 1.2.0")
        #expect(try failure(resolve(catalog, ["main": "*"], pins: ["main": "1.3.0"])).description
            == "you asked for main *, but main is pinned to 1.3.0, which the catalog does not have")
        // A pinned installed module stays, even when asked to update everything.
        let installed = try [release("main", "1.0.0")]
        #expect(try plan(resolve(catalog, [:], installed: installed, pins: ["main": "1.0.0"], update: .all)).steps.isEmpty)
    }

    @Test("installed versions that fit are kept; update moves them to the newest release, never to a prerelease")
    func keepAndUpdate() throws {
        let catalog = try catalog(Self.mainVersions + [("x", "1.0.0", ["main": "^1"]), ("x", "1.1.0", ["main": "^1"])])
        let installed = try [release("main", "1.0.0"), release("x", "1.0.0", ["main": "^1"])]
        #expect(try plan(resolve(catalog, ["x": "*"], installed: installed)).steps.isEmpty)
        #expect(try steps(plan(resolve(catalog, [:], installed: installed, update: .only(["x"])))) == ["upgrade x 1.0.0 → 1.1.0"])
        #expect(try steps(plan(resolve(catalog, [:], installed: installed, update: .all))) == ["upgrade main 1.0.0 → 1.2.0", "upgrade x 1.0.0 → 1.1.0"])
        let alone = try [release("main", "2.4.1")]
        #expect(try plan(resolve(catalog, [:], installed: alone, update: .all)).steps.isEmpty, "3.0.0-beta.1 is not an update")
    }

    @Test("an installed module's requirements hold: a request that breaks one moves it too, or is refused")
    func installedRequirementsHold() throws {
        let catalog = try catalog(Self.mainVersions + [("report", "1.0.0", ["main": "^1"]), ("report", "2.0.0", ["main": "^2"])])
        let installed = try [release("main", "1.2.0"), release("report", "1.0.0", ["main": "^1"])]
        #expect(try steps(plan(resolve(catalog, ["main": "^2"], installed: installed))) == ["upgrade main 1.2.0 → 2.4.1", "upgrade report 1.0.0 → 2.0.0"])
        // Installed from a file the catalog does not have: it stays as it is, and its requirement holds.
        let local = try [release("main", "1.2.0"), release("local", "0.1.0", ["main": "~1.2"])]
        let failure = try failure(try resolve(catalog, ["main": "^2"], installed: local))
        #expect(failure.description.contains("local 0.1.0 requires main ~1.2"), "\(failure)")
        #expect(failure.description.contains("you asked for main ^2"), "\(failure)")
    }

    @Test("a downgrade is planned only when nothing else fits, and says so")
    func downgrade() throws {
        let catalog = try catalog(Self.mainVersions + [("old", "1.0.0", ["main": "<1.1"])])
        let installed = try [release("main", "1.2.0")]
        #expect(try steps(plan(resolve(catalog, ["old": "*"], installed: installed))) == ["downgrade main 1.2.0 → 1.0.0", "install old 1.0.0"])
    }

    @Test("a pathological catalog stops at the step limit instead of hanging: 11 pigeons, 10 holes")
    func stepLimit() throws {
        let holes = 10
        let catalog = try pigeonholes(pigeons: holes + 1, holes: holes)
        let requests = Dictionary(uniqueKeysWithValues: (1...holes + 1).map { ("pigeon-\($0)", "*") })
        let failure = try failure(try resolve(catalog, requests, stepLimit: 20_000))
        #expect(failure.kind == .stepLimit)
        #expect(failure.steps == 20_000)
        #expect(failure.description.hasPrefix("resolving gave up after trying 20000 candidate versions"), "\(failure)")
        // The same puzzle, small enough to finish, is refused as unsatisfiable.
        let small = try pigeonholes(pigeons: 4, holes: 3)
        let smallRequests = Dictionary(uniqueKeysWithValues: (1...4).map { ("pigeon-\($0)", "*") })
        #expect(try self.failure(resolve(small, smallRequests)).kind == .unsatisfiable)
        // And a solvable request over the limit is cut off too: the limit is a limit.
        let chain = try self.catalog((0..<50).map { ("m\($0)", "1.0.0", $0 == 0 ? [:] : ["m\($0 - 1)": "^1"]) })
        #expect(try self.failure(resolve(chain, ["m49": "*"], stepLimit: 10)).kind == .stepLimit)
        #expect(try plan(resolve(chain, ["m49": "*"], stepLimit: 50)).steps.count == 50)
    }

    /// Pigeon i's version h means "in hole h"; it requires hole-h at version i, so two pigeons
    /// in one hole conflict. More pigeons than holes: no answer, and backtracking tries them all.
    private func pigeonholes(pigeons: Int, holes: Int) throws -> CatalogSnapshot {
        var rows: [(String, String, [String: String])] = []
        for pigeon in 1...pigeons {
            for hole in 1...holes { rows.append(("pigeon-\(pigeon)", "\(hole).0.0", ["hole-\(hole)": "=\(pigeon).0.0"])) }
        }
        for hole in 1...holes {
            for pigeon in 1...pigeons { rows.append(("hole-\(hole)", "\(pigeon).0.0", [:])) }
        }
        return try catalog(rows)
    }

    @Test("the same request gives the same plan every time")
    func repeatable() throws {
        let catalog = try catalog(Self.mainVersions + (0..<20).map { ("m\($0)", "1.0.0", ["main": "^1"]) })
        let requests = Dictionary(uniqueKeysWithValues: (0..<20).map { ("m\($0)", "*") })
        let first = try plan(try resolve(catalog, requests))
        for _ in 0..<5 { #expect(try plan(resolve(catalog, requests)) == first) }
        #expect(steps(first).first == "install main 1.2.0")
        #expect(steps(first).dropFirst().map { $0 } == (0..<20).map { "m\($0)" }.sorted().map { "install \($0) 1.0.0" })
    }

    @Test("1,000 modules with 10 versions each: a request over the whole catalog completes, in dependency order")
    func thousandModules() throws {
        // Module i's versions 1.0.0 … 1.9.0 require up to three earlier modules; every seventh
        // module's newest version requires a version that does not exist, so it backtracks.
        var rows: [(String, String, [String: String])] = []
        func name(_ i: Int) -> String { "m\(1000 + i)" }
        for i in 0..<1000 {
            for minor in 0..<10 {
                var requires: [String: String] = [:]
                for j in Set([i - 1, i / 2, i / 3]) where j >= 0 && j < i { requires[name(j)] = "^1.\(minor / 3)" }
                if minor == 9, i % 7 == 0, i > 0 { requires[name(i - 1)] = "^2" }
                rows.append((name(i), "1.\(minor).0", requires))
            }
        }
        let catalog = try catalog(rows)
        let plan = try plan(try resolve(catalog, [name(999): "*", name(500): "^1.2"]))
        #expect(plan.selection.count == 1000)
        for i in 1..<1000 { #expect(plan.selection[name(i)]?.description == (i % 7 == 0 ? "1.8.0" : "1.9.0"), "\(name(i))") }
        var placed: Set<String> = []
        for step in plan.steps {
            for dependency in step.release.requires.keys { #expect(placed.contains(dependency), "\(dependency) before \(step.release.id)") }
            placed.insert(step.release.id)
        }
    }
}
