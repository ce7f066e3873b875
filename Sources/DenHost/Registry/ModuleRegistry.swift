import DenCatalog
import DenRouting
import DenKit
import DenSupport
import FoundationEssentials
import Synchronization

/// The plugins the host considered and the routes of the active ones. Installing a plugin is
/// all or nothing: a duplicate id or a conflicting route rejects the whole plugin and leaves
/// the modules already installed untouched. Thread-safe.
public final class ModuleRegistry: @unchecked Sendable {
    private let lock = Lock()
    private var records: [PluginRecord] = []
    /// Where each module id's active record is in `records` (at most one per id: `install`
    /// refuses a second). Kept beside it: searching the records once per install made a start
    /// with many modules quadratic.
    private var activeRecordIndex: [String: Int] = [:]
    private var table = RouteTable<RouteTarget>()
    /// Rebuilt whenever the table changes; resolution only reads it.
    private var router = CompiledRouter<RouteTarget>()
    /// The active modules' exports (`den call`, `exports.call`).
    package let exports = ExportTable()

    /// Every live navigation session, for a hot swap to reach each instance (HotSwap/).
    package let liveSessions = LiveSessions()
    /// The table changed since `router` was compiled: the next `resolve` compiles it once, so a
    /// start that installs a hundred modules compiles once, not a hundred times.
    private var routerIsStale = false

    /// Counts changes to the records (installs, failures, swaps): a reader that keeps what it
    /// derived from them (metrics' module labels) knows when to derive it again.
    package let revision = Atomic<Int>(0)

    /// Set once any active module requires another (`requires`): until then an export call
    /// checks nothing against requirements, not even under the lock.
    private let anyRequires = Atomic<Bool>(false)

    /// Modules installed from their manifest whose file is not loaded yet, by id.
    private var pending: [String: LazyModule] = [:]

    public init() {
        // An export of a module not loaded yet is known only once its code has registered it.
        exports.loadModule = { [weak self] id in self?.loadPending(id) ?? false }
        exports.loadEveryModule = { [weak self] in self?.loadAllPending() }
        exports.declaredExporters = { [weak self] in self?.pendingExporters() ?? [] }
    }

    /// The modules not loaded yet whose manifests list exports.
    private func pendingExporters() -> [String] {
        lock.withLock { pending.compactMap { id, module in module.manifest.exports.isEmpty ? nil : id } }
    }

    /// Loads the not-yet-loaded module `id`; true when there was one to load and it loaded.
    @discardableResult
    package func loadPending(_ id: String) -> Bool {
        guard let module = lock.withLock({ pending.removeValue(forKey: id) }) else { return false }
        return module.ensureLoaded() == nil
    }

    /// Forgets the not-yet-loaded module `id` (a hot swap installed a loaded version instead).
    package func forgetPending(_ id: String) {
        lock.withLock { _ = pending.removeValue(forKey: id) }
    }

    /// Loads every module not loaded yet (a listing of every export needs them).
    package func loadAllPending() {
        let modules = lock.withLock { () -> [LazyModule] in
            defer { pending = [:] }
            return Array(pending.values)
        }
        for module in modules { module.ensureLoaded() }
    }

    public var plugins: [PluginRecord] {
        lock.withLock { records }
    }

    /// Every active route pattern with the module that serves it and whether it needs a
    /// logged-in user, in registration order.
    package var routes: [(pattern: String, moduleID: String, requiresLogin: Bool)] {
        lock.withLock {
            records.filter(\.isActive).flatMap { record in
                record.routes.map { ($0, record.id ?? "?", record.loginRoutes.contains($0)) }
            }
        }
    }

    /// The navigation entries of the active modules (a module that failed to load, or was
    /// not selected, has no active record): by order, then title, then module id.
    package var navigation: [(moduleID: String, entry: NavigationEntry)] {
        let all: [(moduleID: String, entry: NavigationEntry)] = lock.withLock {
            records.filter(\.isActive).flatMap { record in
                record.navigation.map { (moduleID: record.id ?? "?", entry: $0) }
            }
        }
        return all.sorted { (a: (moduleID: String, entry: NavigationEntry), b: (moduleID: String, entry: NavigationEntry)) -> Bool in
            if a.entry.order != b.entry.order { return a.entry.order < b.entry.order }
            if a.entry.title != b.entry.title { return a.entry.title < b.entry.title }
            return a.moduleID < b.moduleID
        }
    }

    /// Room for `count` more modules of about one route each, before a start installs them: a
    /// dictionary that grows rehashes every key it holds at each doubling (≈ a hash of every id
    /// again per module), and a list that grows copies itself into fresh memory.
    package func reserveCapacity(adding count: Int) {
        lock.withLock {
            records.reserveCapacity(records.count + count)
            activeRecordIndex.reserveCapacity(activeRecordIndex.count + count)
            pending.reserveCapacity(pending.count + count)
            table.reserveCapacity(adding: count)
        }
    }

    /// Installs a loaded plugin, or records why it cannot be installed.
    @discardableResult
    public func install(_ plugin: LoadedPlugin) -> PluginRecord {
        install(plugin, lazy: nil)
    }

    /// Installs `plugin`; with `lazy`, a module installed from its manifest, which is recorded
    /// as not loaded (and kept to load on first use) in the same locked step as its record.
    @discardableResult
    func install(_ plugin: LoadedPlugin, lazy: LazyModule?) -> PluginRecord {
        defer { revision.add(1, ordering: .releasing) }
        // Read before the registry's lock: a lazy module takes its own lock, then the registry's
        // (its load reports through `updateRecord`), so the two are never taken the other way.
        let settled = lazy?.isSettled
        return lock.withLock {
            var record = PluginRecord(filePath: plugin.filePath, fileName: plugin.fileName, id: plugin.id, version: plugin.version, summary: plugin.summary,
                                      routes: plugin.routes.map(\.pattern), settings: plugin.settings, status: .active)
            record.loginRoutes = plugin.routes.filter(\.requiresLogin).map(\.pattern)
            record.isolated = plugin.isolated
            record.signature = plugin.signature
            record.navigation = plugin.manifest?.navigation ?? []
            record.permissions = plugin.manifest?.permissions
            record.requires = PluginRecord.requirements(of: plugin.manifest)
            if !record.requires.isEmpty { anyRequires.store(true, ordering: .releasing) }
            // One look-up for the duplicate check and the index both: each costs a start with a
            // hundred modules a hash of the id per module. Undone below when the module is refused.
            if let index = activeRecordIndex.updateValue(records.count, forKey: plugin.id) {
                activeRecordIndex[plugin.id] = index
                let existing = records[index]
                record.status = .failed(PluginLoadError(file: plugin.filePath,
                                                        cause: .duplicateModule(id: plugin.id, existingFile: existing.file.path)))
                plugin.endpoint?.revoke()
                records.append(record)
                return record
            }
            // Added in place: a copy of the table per module made a start with many modules quadratic.
            // A module not loaded yet gets its gate when it loads: most never do. Its routes then
            // all go through `lazy`, which hands out that gate (`RouteTarget.loaded()`).
            assert(lazy == nil || plugin.routes.allSatisfy { $0.lazy === lazy }, "a lazy module's routes load through it")
            let gate = lazy == nil ? BuilderGate() : BuilderGate.notLoaded
            for (added, route) in plugin.routes.enumerated() {
                do {
                    try table.add(route.pattern, owner: plugin.id,
                                  value: RouteTarget(moduleID: plugin.id, route: route, host: plugin.host, gate: gate))
                } catch {
                    table.removeLast(added)
                    activeRecordIndex[plugin.id] = nil
                    record.status = .failed(PluginLoadError(file: plugin.filePath, cause: .routeConflict("\(error)")))
                    plugin.endpoint?.revoke()
                    records.append(record)
                    return record
                }
            }
            routerIsStale = true
            plugin.endpoint?.attribute(to: plugin.id, permissions: plugin.manifest?.permissions ?? .nothing)
            exports.set(plugin.exports.map { $0.bound(to: plugin.id, host: plugin.host) }, of: plugin.id)
            if let lazy, let settled {
                record.isLoaded = settled
                if !settled { pending[plugin.id] = lazy }
            }
            records.append(record)
            return record
        }
    }

    /// Records a plugin file that failed to load.
    package func recordFailure(_ error: PluginLoadError, file: URL, refusedRoutes: [String] = []) {
        defer { revision.add(1, ordering: .releasing) }
        var id = error.moduleID
        if id == nil, case .duplicateModule(let taken, _) = error.cause { id = taken }
        var record = PluginRecord(file: file, id: id, version: nil, summary: nil, routes: [], status: .failed(error))
        record.refusedRoutes = refusedRoutes.isEmpty ? error.manifestRoutes ?? [] : refusedRoutes
        lock.withLock { records.append(record) }
    }

    /// Files that failed before den could know their routes (no manifest): a route that no
    /// module serves may be one of theirs, so "not found" names them with why they failed.
    package var failuresWithUnknownRoutes: [PluginLoadError] {
        lock.withLock {
            records.compactMap { record in
                guard case .failed(let error) = record.status, error.manifestRoutes == nil, record.refusedRoutes.isEmpty else { return nil }
                if case .duplicateModule = error.cause { return nil } // its routes are the other file's
                return error
            }
        }
    }

    /// Why `route` is not served when a module refused before it loaded would serve it.
    package func refusal(serving route: String) -> PluginLoadError? {
        let refused = lock.withLock { records.filter { !$0.refusedRoutes.isEmpty } }
        for record in refused {
            guard case .failed(let error) = record.status else { continue }
            var table = RouteTable<Int>()
            for pattern in record.refusedRoutes { try? table.add(pattern, owner: record.id ?? "?", value: 0) }
            if case .success = table.compile().resolve(route) { return error }
        }
        return nil
    }

    /// Changes the route table and the records in one locked step (a hot swap's `replace`);
    /// when `change` throws, both stay as they were and resolution never saw a half change.
    package func transact<T>(_ change: (inout RouteTable<RouteTarget>, inout [PluginRecord]) throws -> T) rethrows -> T {
        defer { revision.add(1, ordering: .releasing) }
        return try lock.withLock {
            var candidateTable = table, candidateRecords = records
            let result = try change(&candidateTable, &candidateRecords)
            table = candidateTable
            records = candidateRecords
            reindexActiveRecords()
            if records.contains(where: { !$0.requires.isEmpty }) { anyRequires.store(true, ordering: .releasing) }
            router = candidateTable.compile()
            routerIsStale = false
            return result
        }
    }

    /// Rebuilds `activeRecordIndex` after `records` changed as a whole. Under the lock.
    private func reindexActiveRecords() {
        activeRecordIndex = [:]
        for (index, record) in records.enumerated() where record.isActive {
            if let id = record.id, activeRecordIndex[id] == nil { activeRecordIndex[id] = index }
        }
    }

    /// A copy of the route table, to try a change on without making it.
    package var tableSnapshot: RouteTable<RouteTarget> { lock.withLock { table } }

    /// Changes the record of the module `id` from `file` (a lazily loaded module that loaded or failed).
    package func updateRecord(filePath: String, id: String, _ change: (inout PluginRecord) -> Void) {
        defer { revision.add(1, ordering: .releasing) }
        lock.withLock {
            guard let index = activeRecordIndex[id], records[index].filePath == filePath else { return }
            change(&records[index])
            if !records[index].isActive { activeRecordIndex[id] = nil }
        }
    }

    /// Why `manifest`'s module may not join the active modules now, or nil: a requirement den
    /// cannot read, or the first one unmet (`requires main ^2, but main 1.4.0 is loaded`).
    package func unmetRequirement(of manifest: ModuleManifest, denVersion: SemanticVersion) -> String? {
        guard !manifest.requires.isEmpty else { return nil }
        if case .failure(let error) = ManifestRequirements.release(manifest) { return "has a version or requirement den cannot read (\(error))" }
        return unmetRequirement(ManifestRequirements.parsed(manifest), denVersion: denVersion)
    }

    /// Why a module that requires `requires` may not join the active modules now: its first
    /// unmet requirement, or nil.
    private func unmetRequirement(_ requires: [String: VersionRequirement], denVersion: SemanticVersion) -> String? {
        guard !requires.isEmpty else { return nil }
        return lock.withLock {
            for (id, range) in requires.sorted(by: { $0.key < $1.key }) {
                if id == ModuleRelease.denID {
                    guard range.isSatisfied(by: denVersion) else { return "requires den \(range), and this den is \(denVersion)" }
                    continue
                }
                guard let index = activeRecordIndex[id] else { return "requires \(id) \(range), but \(id) is not loaded" }
                if let problem = ManifestRequirements.problem(id, range, version: records[index].version) { return problem }
            }
            return nil
        }
    }

    /// The active modules that require module `id` in a range `version` is outside of, each as
    /// `jogsstats 1.0.0 requires main ^1`: what a hot swap to `version` leaves with calls refused.
    package func dependents(of id: String, outside version: String) -> [String] {
        let parsed = SemanticVersion(version)
        return lock.withLock {
            records.compactMap { record in
                guard record.isActive, record.id != id, let range = record.requires[id], parsed.map(range.isSatisfied) != true else { return nil }
                return "\(record.id ?? "?") \(record.version ?? "") requires \(id) \(range)"
            }
        }
    }

    /// Why module `caller` may not call an export of module `callee` now: it requires `callee` in a
    /// range the loaded version is outside of. nil when it does not require `callee` at all (its
    /// permission alone then decides) or the version is in range.
    package func exportRequirementProblem(caller: String, callee: String) -> String? {
        guard anyRequires.load(ordering: .acquiring) else { return nil }
        return lock.withLock {
            // A callee not loaded is the export table's to report (DEN_ERR_NOT_FOUND).
            guard let callerIndex = activeRecordIndex[caller], let range = records[callerIndex].requires[callee],
                  let calleeIndex = activeRecordIndex[callee] else { return nil }
            return ManifestRequirements.problem(callee, range, version: records[calleeIndex].version).map { "\(caller) \($0)" }
        }
    }

    /// Finds the module for a route. Pure: builds nothing, changes nothing.
    public func resolve(_ route: String) -> Result<RouteMatch<RouteTarget>, RouteResolutionError> {
        let current = lock.withLock {
            if routerIsStale {
                router = table.compile()
                routerIsStale = false
            }
            return self.router
        }
        return current.resolve(route)
    }
}

extension ModuleRegistry {
    /// Each active module's version, hosting and signer, for metrics' labels and spans.
    package var factsSource: ModuleFactsCache.Source {
        ModuleFactsCache.Source(revision: { [self] in revision.load(ordering: .acquiring) }) { [self] revision in
            var byModule: [String: ModuleFacts] = [:]
            for record in plugins where record.isActive {
                guard let id = record.id else { continue }
                let signer = record.signature.map { $0.publisher ?? $0.label } ?? ""
                byModule[id] = ModuleFacts(version: record.version ?? "", hosting: record.isolated == nil ? "in-process" : "isolated",
                                           signer: signer, revision: revision)
            }
            return byModule
        }
    }
}
