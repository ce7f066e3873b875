import DenRouting
import DenHost
import DenKit
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Logging

/// Swaps a new version of a plugin file into a running host (DESIGN §8, docs/HOT_SWAP.md).
///
/// The new file is loaded from a new unique path (the plugin cache names copies by file
/// identity), never touching the old image, which stays mapped for good (a Swift plugin is never
/// `dlclose`d). The load checks (header, ABI, toolchain, entry point) run as at start; then the
/// new version must provide the same module id and its routes must fit the table without the old
/// version's. For every live instance of the old version in every session: `snapshot` → build
/// the same route with the new version → `restore`. Only when all of that worked does the
/// registry switch the module's routes, in one locked step, while every session's turn is held:
/// a call in flight finishes on the old version first, and no request sees half a swap. Any
/// failure refuses the whole new version; the old one keeps serving, and the report says why.
public final class HotSwapper: @unchecked Sendable {
    private let registry: ModuleRegistry
    private let loader: PluginLoader
    private let logger: Logger?
    private let selected: Set<String>?
    private let cacheDirectory: URL
    package let policy: HotSwapPolicy
    private let trust: ModuleTrust?
    // `lock` serialises swaps and guards `loadedStamps` and `retained`.
    private let lock = Lock()
    /// The identity of each plugin file's loaded version, and of its signature (`.minisig`) as it
    /// was judged, by standardized path.
    private var loadedStamps: [String: Stamps] = [:]

    private struct Stamps: Equatable {
        var file: FileStamp?
        var signature: FileStamp?

        init(_ file: URL) {
            self.file = FileStamp(file.path)
            signature = FileStamp(ModuleTrust.signaturePath(of: file.path))
        }
    }
    /// What the serving image of each module costs (file size plus the memory its load added):
    /// what a swap adds to the module's retained bytes.
    private var imageCosts: [String: Int64] = [:]

    private let timeShare: ModuleTimeShare
    /// Files refused because a module they require was missing or at another version (by key):
    /// each is tried again after a swap or install lands, which may be what they waited for
    /// (`den modules update` installs a module's new dependency first).
    private var awaitingRequirements: Set<String> = []
    /// Hears of each waiting file that landed after another swap (`awaitingRequirements`), as
    /// the caller of `swap` hears of its own: front-ends tell their pages, hosts publish it.
    private let onRetryLanded: (@Sendable (HotSwapReport) -> Void)?

    public init(runtime: DenRuntime, policy: HotSwapPolicy = HotSwapPolicy(), onRetryLanded: (@Sendable (HotSwapReport) -> Void)? = nil) {
        self.onRetryLanded = onRetryLanded
        registry = runtime.registry
        loader = PluginLoader(cache: PluginCache(directory: runtime.configuration.cacheDirectory,
                                                 limits: runtime.configuration.cacheLimits),
                              hub: runtime.services, logger: runtime.logger, hosting: runtime.configuration.hosting, isolation: runtime.isolation, trust: runtime.loader.trust,
                              permissions: runtime.loader.permissions, requirements: runtime.loader.requirements)
        trust = runtime.loader.trust
        logger = runtime.logger
        selected = runtime.configuration.selectedModules
        cacheDirectory = runtime.configuration.cacheDirectory
        timeShare = runtime.timeShare
        self.policy = policy
        // What is loaded now counts as each file's current version.
        for record in registry.plugins {
            // A file held for permissions is tried again once they are granted, unchanged.
            if let error = record.error, case .permissionsHeld = error.cause { continue }
            // One whose requirements were unmet is tried again once another module lands.
            if let error = record.error, error.waitsForAnotherModule {
                awaitingRequirements.insert(Self.key(record.file))
                continue
            }
            let stamps = Stamps(record.file)
            guard let stamp = stamps.file else { continue }
            loadedStamps[Self.key(record.file)] = stamps
            if let id = record.id, record.isActive { imageCosts[id] = stamp.size }
        }
    }

    private static func key(_ file: URL) -> String { file.standardizedFileURL.path }

    /// Loads `file`'s current version and swaps it in (or installs it, for a file that served
    /// nothing). Safe to call from any thread; swaps run one at a time. `again`: load it even if
    /// this very version is loaded or was refused (a module held for permissions, now granted:
    /// a lazily installed one may still have its manifest's routes waiting).
    public func swap(_ file: URL, again: Bool = false) -> HotSwapReport {
        let (report, landed) = lock.withLock { () -> (HotSwapReport, [HotSwapReport]) in
            let started = ContinuousClock.now
            if again { loadedStamps[Self.key(file)] = nil }
            var report = swapLocked(file)
            report.duration = ContinuousClock.now - started
            if case .unchanged = report.outcome { return (report, []) }
            let landed = report.succeeded ? retryAwaitingRequirements() : []
            publishStatus()
            return (report, landed)
        }
        // Told outside the lock: a front-end may ask the swapper again from there.
        if let onRetryLanded { for other in landed { onRetryLanded(other) } }
        return report
    }

    /// Tries each file that waited for its requirements again, until none more lands; returns the
    /// reports of those that landed. Under `lock`.
    private func retryAwaitingRequirements() -> [HotSwapReport] {
        var landed: [HotSwapReport] = []
        var landedOne = true
        while landedOne, !awaitingRequirements.isEmpty {
            landedOne = false
            for key in awaitingRequirements.sorted() {
                awaitingRequirements.remove(key)
                // A file removed meanwhile waits no more (and is no failure).
                guard FileManager.default.fileExists(atPath: key) else { continue }
                loadedStamps[key] = nil
                let started = ContinuousClock.now
                var report = swapLocked(URL(fileURLWithPath: key))
                report.duration = ContinuousClock.now - started
                if report.succeeded {
                    landedOne = true
                    logger?.info("\(report.description)", metadata: ["module": "\(report.moduleID ?? "?")"])
                    landed.append(report)
                }
            }
        }
        return landed
    }

    /// Tells `den plugins` in other processes what this den serves now (`RunningDenStatus`).
    package func publishStatus() {
        RunningDenStatus.write(registry.plugins.map(\.summaryDocument), cache: cacheDirectory, watching: true,
                               busiest: timeShare.blame().map { "\($0.moduleID) \($0.text)" })
    }

    /// This den stops watching: its status is no longer news.
    package func withdrawStatus() {
        try? FileManager.default.removeItem(at: RunningDenStatus.folder(cache: cacheDirectory).appendingPathComponent("den-\(getpid()).json"))
    }

    private func swapLocked(_ file: URL) -> HotSwapReport {
        var report = HotSwapReport(file: file, moduleID: nil, outcome: .unchanged("no change"))
        let key = Self.key(file)
        // Whatever this attempt brings, the file waits no more; `refuse` puts it back if it must.
        awaitingRequirements.remove(key)
        let stamps = Stamps(file)
        let stamp = stamps.file
        if stamp != nil, loadedStamps[key] == stamps {
            report.outcome = .unchanged("this version is loaded already")
            return report
        }
        let current = registry.plugins.last { Self.key($0.file) == key }
        let serving = current?.isActive == true ? current : nil
        report.moduleID = serving?.id
        // Only the signature changed: judged again, and the module moves only if the policy now
        // puts it elsewhere (isolate-unsigned: a module signed now runs in-process).
        if let serving, let stamp, loadedStamps[key]?.file == stamp, let trust,
           let outcome = signatureChanged(serving, file: file, stamps: stamps, trust: trust, into: &report) {
            return outcome
        }
        let memoryBefore = ResidentMemory.bytes()
        let plugin: LoadedPlugin
        do {
            plugin = try loader.load(file)
        } catch {
            return refuse(.load(error), file: file, moduleID: serving?.id, stamps: stamps, into: &report)
        }
        loadedStamps[key] = stamps
        let imageCost = Int64(FileStamp(plugin.loadedCopyPath)?.size ?? 0) + max(0, ResidentMemory.bytes() - memoryBefore)
        report.moduleID = plugin.id
        if let selected, !selected.contains(plugin.id) {
            plugin.endpoint?.revoke()
            report.outcome = .unchanged("module '\(plugin.id)' is not selected by --plugins")
            return report
        }
        guard let serving, let moduleID = serving.id else {
            // A file that served nothing (new, or failed before) is installed like at start; its
            // earlier failure is history.
            registry.transact { _, records in records.removeAll { Self.key($0.file) == key && !$0.isActive } }
            let record = registry.install(plugin)
            imageCosts[plugin.id] = imageCost
            if let error = record.error {
                return refuse(.load(error), file: file, moduleID: plugin.id, stamps: stamps, into: &report)
            }
            report.outcome = .installed
            report.generation = 1
            report.routesAdded = record.routes
            return report
        }
        guard plugin.id == moduleID else {
            plugin.endpoint?.revoke()
            return refuse(.otherModule(expected: moduleID, found: plugin.id), file: file, moduleID: moduleID, stamps: stamps, into: &report)
        }
        do {
            let result = try replace(moduleID, with: plugin, imageCost: imageCost)
            report.outcome = .swapped
            report.generation = result.generation
            report.routesAdded = plugin.routes.map(\.pattern).filter { !serving.routes.contains($0) }
            report.routesDropped = serving.routes.filter { pattern in !plugin.routes.contains { $0.pattern == pattern } }
            report.instancesSwapped = result.plans.reduce(0) { $0 + $1.replacements.count }
            report.statesKept = result.plans.reduce(0) { $0 + $1.statesKept }
            report.rebuiltFresh = result.plans.flatMap { $0.rebuiltFresh.map { "\($0.route) (\($0.reason))" } }
            logger?.info("\(report.description)", metadata: ["module": "\(moduleID)"])
            // The new version serves; modules that require another keep serving too, but their
            // calls of its exports are refused until they are updated (ExportsService).
            for dependent in registry.dependents(of: moduleID, outside: plugin.version) {
                logger?.warning("\(dependent), and \(moduleID) \(plugin.version) now serves: its calls of \(moduleID)'s exports are refused until it is updated (den modules update) or removed", metadata: ["module": "\(moduleID)"])
            }
            return report
        } catch {
            plugin.endpoint?.revoke()
            return refuse(error, file: file, moduleID: moduleID, stamps: stamps, into: &report)
        }
    }

    /// The serving module's file is the loaded version, and only its signature changed: the
    /// report when that needs no new load (nil: load it, the policy now hosts it elsewhere).
    /// A signature that no longer holds leaves the loaded version serving, as a refused new file
    /// does: den never unloads code it already ran (docs/SIGNING.md, "What is checked when").
    private func signatureChanged(_ serving: PluginRecord, file: URL, stamps: Stamps, trust: ModuleTrust,
                                  into report: inout HotSwapReport) -> HotSwapReport? {
        let state = trust.state(checking: file.path, signedAs: file.path, id: serving.id, version: serving.version)
        let decision = trust.decide(state)
        let key = Self.key(file)
        switch decision {
        case .refused(let reason, let fix):
            registry.transact { _, records in
                if let index = records.lastIndex(where: { Self.key($0.file) == key && $0.isActive }) { records[index].signature = state }
            }
            let error = PluginLoadError(file: file.path, cause: .untrusted(reason: "its signature changed, and \(reason)", fix: fix),
                                        moduleID: serving.id)
            return refuse(.load(error), file: file, moduleID: serving.id, stamps: stamps, into: &report)
        case .isolated where serving.isLoaded && serving.isolated == nil:
            return nil // isolate-unsigned: in-process no longer; loaded again in a worker
        case .inProcess where serving.isolated != nil && !isolatedByOptions(serving):
            return nil // signed by a trusted key now: out of its worker
        case .isolated, .inProcess:
            loadedStamps[key] = stamps
            registry.transact { _, records in
                if let index = records.lastIndex(where: { Self.key($0.file) == key && $0.isActive }) {
                    records[index].signature = state
                    records[index].swapError = nil
                }
            }
            publishStatus()
            report.outcome = .unchanged("its signature changed and holds (\(state.text)); the loaded version serves on")
            return report
        }
    }

    /// Whether `--isolate` or `den.hosting` isolate the module whatever its signature.
    private func isolatedByOptions(_ record: PluginRecord) -> Bool {
        guard loader.isolation != nil else { return false }
        return loader.hosting.mode(moduleID: record.id, fileName: record.fileName) == .isolated
    }

    private func refuse(_ cause: HotSwapError.Cause, file: URL, moduleID: String?, stamps: Stamps,
                        into report: inout HotSwapReport) -> HotSwapReport {
        // A refused version is not tried again until the file or its signature changes; one held
        // for permissions is tried again once they are granted (GrantFollower), the file unchanged.
        var held = false
        if case .load(let error) = cause, case .permissionsHeld = error.cause { held = true }
        if case .load(let error) = cause, error.waitsForAnotherModule {
            held = true
            awaitingRequirements.insert(Self.key(file))
        }
        if stamps.file != nil, !held { loadedStamps[Self.key(file)] = stamps }
        let error = HotSwapError(file: file.path, cause: cause)
        report.outcome = .refused(error)
        // The report carries the refusal to the front-end, which tells the user; an error log
        // line as well made every refusal appear twice.
        logger?.debug("\(error.description)", metadata: ["module": "\(moduleID ?? "?")"])
        registry.transact { _, records in
            if let index = records.lastIndex(where: { Self.key($0.file) == Self.key(file) && $0.isActive }) {
                records[index].swapError = error.description
            } else if moduleID == nil, case .load(let loadError) = cause {
                // A file that never served: `den plugins` shows why, as for a failure at start.
                records.removeAll { Self.key($0.file) == Self.key(file) && !$0.isActive }
                records.append(PluginRecord(file: file, id: nil, version: nil, summary: nil, routes: [], status: .failed(loadError)))
            }
        }
        return report
    }

    private struct Replacement {
        var generation: Int
        var plans: [SessionSwapPlan]
    }

    /// The swap proper: plan every session's instances against the table as it will be, then
    /// switch the registry and the sessions together.
    private func replace(_ moduleID: String, with plugin: LoadedPlugin,
                         imageCost: Int64) throws(HotSwapError.Cause) -> Replacement {
        let gate = BuilderGate()
        let targets = plugin.routes.map { RouteTarget(moduleID: moduleID, route: $0, host: plugin.host, gate: gate) }
        func replaced(_ table: RouteTable<RouteTarget>) throws(HotSwapError.Cause) -> RouteTable<RouteTarget> {
            var table = table
            table.removeAll(ownedBy: moduleID)
            for target in targets {
                do { try table.add(target.route.pattern, owner: moduleID, value: target) } catch {
                    throw .routeConflict("\(error)")
                }
            }
            return table
        }
        let router = try replaced(registry.tableSnapshot).compile()
        // Builders may use services (storage) while they rebuild the open screens.
        plugin.endpoint?.attribute(to: moduleID, permissions: plugin.manifest?.permissions ?? .nothing)
        do {
            return try registry.liveSessions.whileFrozen { sessions -> Replacement in
                // Each session's turn: a step in flight finishes first, and none starts until the
                // swap is applied; reading a session's screen never waits for it.
                let turns = sessions.map { $0.takeTurn() }
                defer { for (session, turn) in zip(sessions, turns).reversed() { session.releaseTurn(turn) } }
                var plans: [SessionSwapPlan] = []
                for session in sessions {
                    plans.append(try session.planSwap(of: moduleID, router: router, policy: policy))
                }
                var retiring: (any IsolatedHosting)?
                let generation = try registry.transact { table, records -> Int in
                    // Checked again in the locked step: the table may have changed since.
                    table = try replaced(table)
                    guard let index = records.lastIndex(where: { $0.isActive && $0.id == moduleID }) else { return 1 }
                    var record = records[index]
                    record.file = plugin.file
                    record.version = plugin.version
                    record.summary = plugin.summary
                    record.routes = plugin.routes.map(\.pattern)
                    record.loginRoutes = plugin.routes.filter(\.requiresLogin).map(\.pattern)
                    record.settings = plugin.settings
                    record.signature = plugin.signature
                    record.navigation = plugin.manifest?.navigation ?? []
                    record.permissions = plugin.manifest?.permissions
                    record.requires = PluginRecord.requirements(of: plugin.manifest)
                    record.generation += 1
                    record.loadedAt = Date()
                    record.retainedImages += 1
                    record.retainedBytes += imageCosts[moduleID] ?? 0
                    record.swapError = nil
                    record.isLoaded = true
                    if let old = record.isolated, old !== plugin.isolated { retiring = old }
                    record.isolated = plugin.isolated
                    records[index] = record
                    // Calls of the module's exports go to the new version from this step on.
                    registry.exports.set(plugin.exports.map { $0.bound(to: moduleID, host: plugin.host) }, of: moduleID)
                    return record.generation
                }
                imageCosts[moduleID] = imageCost
                registry.forgetPending(moduleID)
                for (plan, turn) in zip(plans, turns) { plan.session.applySwap(plan, turn: turn) }
                // No screen is left on the old version's worker (a rollback starts a new one from
                // the old file): stop it rather than keep a process per swap.
                retiring?.retire()
                return Replacement(generation: generation, plans: plans)
            }
        } catch let cause as HotSwapError.Cause {
            throw cause
        } catch {
            throw .rebuildFailed(route: "?", detail: "\(error)")
        }
    }
}
