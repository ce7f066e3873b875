import DenCatalog
import Foundation

/// Figure 15a: resolving a request against a catalog of 1,000 modules with 10 versions each
/// (SyntheticCatalog), beside decoding that catalog's `index.json` in the same run: every
/// install decodes the index anyway, so the ratio says what resolving adds to what is paid
/// already. Two requests: the top of a 160-deep tree, and one that must backtrack.
struct CatalogResolveBench {
    struct Result {
        var decode = Samples()
        var deep = Samples()
        var backtracking = Samples()
        /// Parsing the 10,000 versions and their ranges into the resolver's snapshot, once.
        var snapshotNanoseconds: UInt64 = 0
        var indexBytes = 0
        var releaseCount = 0
        var deepPlanSize = 0
        var backtrackingPlanSize = 0
        /// What the backtracking request chose for its module (1.x once it has backtracked).
        var backtrackingChoice = ""
        var failures: [String] = []
    }

    let runs: Int

    func run() throws -> Result {
        var result = Result()
        let catalog = SyntheticCatalog()
        result.releaseCount = catalog.releases.count
        let index = try catalog.indexJSON()
        result.indexBytes = index.count
        let start = nowNanoseconds()
        let snapshot = try catalog.snapshot()
        result.snapshotNanoseconds = nowNanoseconds() - start

        let resolver = DependencyResolver(catalog: snapshot)
        guard let den = SemanticVersion(SyntheticCatalog.denVersion) else { throw BenchError("bad den version") }
        func request(_ wanted: (id: String, range: String)) throws -> ResolutionRequest {
            let range: VersionRequirement
            do { range = try VersionRequirement(parsing: wanted.range) } catch { throw BenchError("catalog: \(error)") }
            return ResolutionRequest(requests: [wanted.id: range], denVersion: den)
        }
        let deep = try request(SyntheticCatalog.deepRequest)
        let trap = try request(SyntheticCatalog.trapRequest)

        // Check the answers once, before timing: a request that fails is a broken benchmark.
        switch resolver.resolve(deep) {
        case let .success(plan): result.deepPlanSize = plan.steps.count
        case let .failure(failure): result.failures.append("the deep request did not resolve: \(failure)")
        }
        switch resolver.resolve(trap) {
        case let .success(plan):
            result.backtrackingPlanSize = plan.steps.count
            result.backtrackingChoice = plan.selection[SyntheticCatalog.trapRequest.id]?.description ?? "?"
            if !result.backtrackingChoice.hasPrefix("1.") {
                result.failures.append("the backtracking request chose \(result.backtrackingChoice), not a 1.x: it did not backtrack")
            }
        case let .failure(failure): result.failures.append("the backtracking request did not resolve: \(failure)")
        }
        if result.deepPlanSize < SyntheticCatalog.blockSize {
            result.failures.append("the deep request's plan has \(result.deepPlanSize) steps, fewer than its \(SyntheticCatalog.blockSize)-deep chain")
        }
        guard result.failures.isEmpty else { return result }

        // In rotation, so a busy moment on the machine falls on all three alike.
        for round in -3..<runs {
            var started = nowNanoseconds()
            blackHole(try CatalogIndex.decode(index))
            let decoded = nowNanoseconds() - started
            started = nowNanoseconds()
            blackHole(resolver.resolve(deep))
            let resolvedDeep = nowNanoseconds() - started
            started = nowNanoseconds()
            blackHole(resolver.resolve(trap))
            let resolvedTrap = nowNanoseconds() - started
            guard round >= 0 else { continue }
            result.decode.add(decoded)
            result.deep.add(resolvedDeep)
            result.backtracking.add(resolvedTrap)
        }
        return result
    }
}
