import DenAccounts
import DenCatalog
import DenKit
import DenModuleFiles
import DenSupport
import FoundationEssentials
import Logging
import Synchronization
import DenPermissions

/// The host: finds and loads plugins, keeps the registry, offers services, opens sessions.
/// Front-ends build on this; it knows none of them.
public final class DenRuntime: Sendable {
    package let configuration: HostConfiguration
    public let registry = ModuleRegistry()
    public let services: ServiceHub
    package let logger: Logger
    /// Every UI session's values and logged-in user (`session` and `auth` services).
    package let sessions: SessionStore
    /// The user accounts behind the `auth` service.
    package let accounts: AccountBook
    /// The `storage` service's engine (front-ends keep their own records in namespaces no module reaches).
    package let storage: any StorageEngine
    package let loader: PluginLoader
    /// What modules' `"den": "<range>"` requirements are held to (`configuration.denVersion`).
    package let denVersion: SemanticVersion
    /// The user's grants of permissions (docs/PERMISSIONS.md), in this runtime's storage.
    package let permissions: PermissionBook
    /// How isolated modules run; nil when this runtime isolates none (docs/ISOLATION.md).
    package let isolation: (any ModuleIsolation)?
    /// Which module took most of den's module time over the last minute (`den plugins`, About).
    package let timeShare = ModuleTimeShare()
    /// Every module call's observers: the slow-call warning, the time share, then those `observe` added.
    package let callObserver: any ModuleCallObserver
    private let addedCallObservers = ObserverList<any ModuleCallObserver>()
    private let addedEventObservers = ObserverList<any HostEventObserver>()
    /// Where a front-end reports what it answered (metrics count it); nothing hears it until
    /// `observe` adds an observer.
    public let events: any HostEventObserver
    private let folderProblemsStore = Mutex<[DiscoveryError]>([])
    /// Module ids seen while loading, in the order seen, repeats and all (an array: a set cost a
    /// start a hash per module, for a list only `--plugins` messages read).
    private let foundModulesStore = Mutex<[String]>([])

    /// The app's name (`den config set den.app name …`), read from storage the first time a
    /// shell is drawn: a start that draws none (`den render`) never opens storage for it.
    private let appNameStore = Mutex<String?>(nil)
    private let appNameEngine: any StorageEngine

    /// The app's name for the shell; "Den" unless an administrator set another.
    public var appName: String {
        if let name = appNameStore.withLock({ $0 }) { return name }
        let (name, problems) = AppSettingDefinitions.appName(engine: appNameEngine)
        for problem in problems { logger.warning("\(problem)") }
        appNameStore.withLock { $0 = name }
        return name
    }

    /// Named plugin folders that could not be read during `loadPlugins`.
    package var folderProblems: [DiscoveryError] { folderProblemsStore.withLock { $0 } }

    public init(configuration: HostConfiguration, logger: Logger? = nil) {
        self.configuration = configuration
        var logger = logger ?? Logger(label: "den")
        logger.logLevel = configuration.logLevel
        self.logger = logger
        self.services = ServiceHub(gate: PermissionGate(logger: logger))
        events = RuntimeEventObserver(added: addedEventObservers)
        callObserver = RuntimeCallObserver(slowCalls: SlowCallWarning(threshold: configuration.callPolicy.slowWarning, logger: logger),
                                           timeShare: timeShare, added: addedCallObservers, tracing: services.tracing)
        // isolate-unsigned runs untrusted modules in workers, so it needs the machinery too.
        // isolate-unsigned runs untrusted modules in workers, so it needs the machinery too. A
        // program built without it refuses those modules rather than run them here.
        var isolation: (any ModuleIsolation)?
        if configuration.hosting.mayIsolate || configuration.trust?.policy == .isolateUnsigned {
            isolation = configuration.makeIsolation?(IsolationRequest(
                policy: configuration.hosting, workerExecutable: configuration.workerExecutable, callPolicy: configuration.callPolicy,
                dataDirectory: configuration.dataDirectory, logger: logger)) ?? UnavailableIsolation()
        }
        self.isolation = isolation
        let storage = configuration.makeStorageEngine(configuration.dataDirectory)
        self.storage = storage
        let permissions = PermissionBook(engine: storage, gate: services.gate, recordsFirstLoad: true,
                                         checksAtLoad: configuration.checksGrantsAtLoad,
                                         cacheFile: configuration.keepsGrantsCache ? GrantsCacheFile(dataDirectory: configuration.dataDirectory) : nil,
                                         logger: logger)
        self.permissions = permissions
        let registry = registry
        let denVersion = SemanticVersion(configuration.denVersion) ?? SemanticVersion(major: 0, minor: 0, patch: 0)
        self.denVersion = denVersion
        self.loader = PluginLoader(cache: PluginCache(directory: configuration.cacheDirectory, limits: configuration.cacheLimits),
                                   hub: services, logger: logger, hosting: configuration.hosting, isolation: isolation, trust: configuration.trust,
                                   permissions: permissions,
                                   requirements: { registry.unmetRequirement(of: $0, denVersion: denVersion) })
        services.register(LogService(logger: logger))
        let timeShare = timeShare
        services.register(PluginsListService(listing: { fields in
            var list = registry.plugins.map { $0.summaryDocument(fields) }
            if fields.contains(.busy), let blame = timeShare.blame(),
               let index = list.firstIndex(where: { $0.status == .active && $0.id == blame.moduleID }) {
                list[index].busy = blame.text
            }
            return list
        }))
        services.register(ExportsService(table: registry.exports, gate: services.gate, observer: callObserver,
                                         requirements: { registry.exportRequirementProblem(caller: $0, callee: $1) }))
        // A save waiting for another process's lock is told in the host's log within half a second.
        storage.reportWaitNotices { [logger] wait in logger.warning("\(wait)") }
        services.register(StorageService(engine: storage))
        appNameEngine = storage
        services.register(HTTPService(gate: services.gate))
        var auth = configuration.auth
        // Checked like a module's settings: a bad value is reported and the default used instead.
        if let problem = auth.problem {
            logger.error("\(problem); using the default auth settings")
            let now = auth.now
            auth = .default
            auth.now = now
        }
        // What an administrator set with `den config set den.auth …` wins over the defaults.
        accounts = AccountBook(engine: storage) { [auth, logger] in
            let (stored, problems) = AuthSettingDefinitions.apply(to: auth, engine: storage)
            for problem in problems { logger.warning("\(problem)") }
            return stored
        }
        sessions = SessionStore { [accounts] name in try accounts.accountIdentity(name) }
        services.register(SessionService(store: sessions))
        services.register(AuthService(accounts: accounts, sessions: sessions, logger: logger, events: events))
    }

    /// From now on `observer` hears of every module call, every service call a module makes, and
    /// every host event (`den serve --metrics`: DenMetrics).
    public func observe(_ observer: any ModuleCallObserver & ServiceCallObserver & HostEventObserver) {
        addedCallObservers.add(observer)
        services.observers.add(observer)
        addedEventObservers.add(observer)
    }

    /// From now on every request a front-end answers, every module call and every service call
    /// is a span of `tracer`'s (`den serve --otlp-endpoint`: DenTracing).
    public func trace(with tracer: any CallTracer) {
        services.tracing.set(tracer)
    }

    /// The tracer set by `trace(with:)`, if any: front-ends open their requests' spans with it.
    public var tracer: (any CallTracer)? { services.tracing.tracer }

    /// The pid of the worker process running the isolated module `moduleID`, and its restarts so
    /// far; nil when that module is not isolated (or not loaded yet).
    public func worker(ofModule moduleID: String) -> (pid: Int32?, restarts: Int)? {
        guard let record = registry.plugins.last(where: { $0.id == moduleID && $0.isActive }), let isolated = record.isolated else { return nil }
        return isolated.worker
    }

    /// The bytes den sent to and received from the worker of the isolated module `moduleID`
    /// (its frames whole, since that worker started); nil when that module is not isolated.
    public func workerTraffic(ofModule moduleID: String) -> (sent: Int, received: Int)? {
        registry.plugins.last(where: { $0.id == moduleID && $0.isActive })?.isolated?.traffic
    }

    /// Discovers and loads every plugin. A broken plugin or an unreadable folder is recorded
    /// (`registry.plugins`, `folderProblems`) and never stops the others. At debug level it logs
    /// what it searched, each copy reused or staged, and how long each load took.
    public func loadPlugins() {
        let discovery = PluginDiscovery(explicitDirectories: configuration.pluginDirectories,
                                        bundledDirectory: configuration.bundledDirectory,
                                        userDirectory: configuration.userDirectory)
        let selected = configuration.selectedModules
        let started = ContinuousClock.now
        for folder in discovery.folders { logger.debug("plugin folder (\(folder.kind.rawValue)): \(folder.url.path)") }
        let (candidates, problems) = discovery.candidates()
        folderProblemsStore.withLock { $0 = problems }
        for problem in problems { logger.error("\(problem)") }
        logger.debug("found \(candidates.count) plugin file(s) in \(PluginLoadTiming.format(ContinuousClock.now - started))")
        var seen = Set<FileIdentity>(minimumCapacity: candidates.count)
        var found: [String] = []
        found.reserveCapacity(candidates.count)
        registry.reserveCapacity(adding: candidates.count)
        // The registry cache tells each file's manifest without loading it: a lazy start installs
        // modules from it, and any start orders modules that require others by it. It is read
        // only when there is a file to look up in it.
        var manifests: ManifestIndex? = candidates.isEmpty ? nil : ManifestIndex(directory: configuration.cacheDirectory)
        let lazyLoaded = lazyModuleLoadHandler()
        let lazyLoader = loader.skippingRequirements
        // Signatures checked anew are saved once, after the loop; first-load grants too.
        loader.trust?.signatures.hold()
        defer { loader.trust?.signatures.release() }
        permissions.batch {
            var planned: [PlannedModule] = []
            planned.reserveCapacity(candidates.count)
            var unselected: [String: String] = [:]
            var skippedByName = Set<String>() // ids as file names spell them (`jogsstats` for jogs-stats)
            for candidate in candidates {
                // The same file reached twice (a folder named twice, a link) is loaded once: a second
                // dlopen would return the loaded image and run its entry point again. One `stat` per
                // file serves this and the registry cache's key.
                let stamp = FileStamp(candidate.path)
                if let stamp, !seen.insert(FileIdentity(stamp)).inserted {
                    logger.debug("\(candidate.file.path) is a file already loaded from another folder; skipped")
                    continue
                }
                // Skip unselected modules without running their code when the file name tells the id.
                if let selected, let hint = candidate.idHint, !PluginDiscovery.hint(hint, mayMatch: selected) {
                    found.append(hint)
                    skippedByName.insert(PluginDiscovery.normalized(hint))
                    logger.debug("\(candidate.file.lastPathComponent): not selected by --plugins; not loaded")
                    continue
                }
                var module = PlannedModule(candidate: candidate, stamp: stamp, manifest: nil)
                switch manifests?.lazyManifest(for: candidate.file, path: candidate.path, stamp: stamp) {
                case .success(let manifest)?:
                    found.append(manifest.id)
                    if let selected, !selected.contains(manifest.id) {
                        unselected[manifest.id] = Self.notSelected
                        logger.debug("\(candidate.fileName): module \(manifest.id) is not selected by --plugins; not loaded")
                        continue
                    }
                    module.manifest = manifest
                case .failure(let reason)?:
                    logger.debug("\(candidate.fileName): loaded at start, its manifest unknown until then (\(reason))")
                case nil: break
                }
                planned.append(module)
            }
            guard ManifestRequirements.anyRequire(planned.lazy.map(\.manifest)) else {
                for module in planned { start(module, found: &found, lazyLoader: lazyLoader, onLoad: lazyLoaded) }
                return
            }
            // Dependencies first; modules without a manifest first of all (they tell their id and
            // version only by loading, and require nothing).
            for module in planned where module.manifest == nil { start(module, found: &found, lazyLoader: lazyLoader, onLoad: lazyLoaded) }
            for module in planned {
                for id in (module.manifest?.requires ?? [:]).keys where skippedByName.contains(PluginDiscovery.normalized(id)) {
                    unselected[id] = Self.notSelected
                }
            }
            let loaded = registry.plugins.filter(\.isActive).compactMap { record in record.id.map { (id: $0, version: record.version) } }
            let (ordered, refused) = ManifestRequirements.arrange(planned.compactMap { module in module.manifest.map { (module, $0) } },
                                                                  loaded: loaded, unavailable: unselected, denVersion: denVersion)
            for (module, reason) in refused {
                let error = PluginLoadError(file: module.candidate.path, cause: .requirementUnmet(reason), moduleID: module.manifest?.id)
                registry.recordFailure(error, file: module.candidate.file, refusedRoutes: module.manifest?.routes.map(\.pattern) ?? [])
                logger.error("\(error)")
            }
            for module in ordered { start(module, found: &found, lazyLoader: lazyLoader, onLoad: lazyLoaded) }
        }
        foundModulesStore.withLock { $0 = found }
        if manifests != nil { saveManifestIndex(&manifests!) }
        if let report = loader.cache.pruneIfDue(), report.removed > 0 {
            logger.debug("plugin cache: removed \(report.removed) unused copies (\(report.bytes) bytes)")
        }
        logger.debug("plugins loaded in \(PluginLoadTiming.format(ContinuousClock.now - started))")
    }

    private static let notSelected = "is not selected by --plugins (name it there too)"

    /// Loads one planned module: installed from its manifest on a lazy start, loaded now otherwise
    /// (or when den knows no manifest for it). A failure is recorded, never thrown.
    private func start(_ module: PlannedModule, found: inout [String], lazyLoader: PluginLoader, onLoad: @escaping LazyModule.LoadHandler) {
        let candidate = module.candidate
        if configuration.loadsLazily, let manifest = module.manifest {
            installFromManifest(candidate, manifest: manifest, stamp: module.stamp, lazyLoader: lazyLoader, onLoad: onLoad)
            return
        }
        let loadStarted = ContinuousClock.now
        do throws(PluginLoadError) {
            let known = module.manifest.flatMap { manifest in module.stamp.map { PluginLoader.KnownManifest(stamp: $0, manifest: manifest) } }
            let plugin = try loader.load(candidate.file, known: known)
            if module.manifest == nil { found.append(plugin.id) }
            logger.debug("""
                loaded \(plugin.id) \(plugin.version) from \(candidate.file.path) in \
                \(PluginLoadTiming.format(ContinuousClock.now - loadStarted)) \
                (\(plugin.reusedCopy ? "reused cached copy" : "staged new copy") \(plugin.loadedCopy.lastPathComponent))
                """)
            if let selected = configuration.selectedModules, !selected.contains(plugin.id) { return }
            let record = registry.install(plugin)
            if let error = record.error { logger.error("\(error)") }
        } catch {
            registry.recordFailure(error, file: candidate.file)
            logger.error("\(error)")
            logger.debug("\(candidate.file.lastPathComponent) failed after \(PluginLoadTiming.format(ContinuousClock.now - loadStarted)); its cached copy was removed")
        }
    }

    /// The plugin folders searched, in order (bundled, per-user, then named).
    package var searchedFolders: [URL] {
        PluginDiscovery(explicitDirectories: configuration.pluginDirectories, bundledDirectory: configuration.bundledDirectory,
                        userDirectory: configuration.userDirectory).folders.map(\.url)
    }

    /// Every module id seen while loading, selected or not: the ids of loaded plugins, and for
    /// files skipped by `--plugins` the id their name suggests. Tells a user what `--plugins` can name.
    package var foundModules: [String] { Set(foundModulesStore.withLock { $0 }).sorted() }

    /// Module ids asked for with `--plugins` that no loaded plugin provides.
    package var missingSelectedModules: [String] {
        guard let selected = configuration.selectedModules else { return [] }
        let active = Set(registry.plugins.filter(\.isActive).compactMap(\.id))
        return selected.subtracting(active).sorted()
    }

    /// The first screen when none is named: `main`, else `about`, else the first plain route.
    package var homeRoute: String {
        for route in ["main", "about"] where (try? registry.resolve(route).get()) != nil { return route }
        return registry.routes.first { !$0.pattern.contains("<") }?.pattern ?? "main"
    }

    /// A UI session; `onSlowCall` hears of a module call that runs long (see `ModuleCallPolicy`);
    /// `handOff` hears of a call given up (`CallHandOff`).
    public func makeSession(handOff: CallHandOff? = nil, interruption: CallInterruption = CallInterruption(),
                            onSlowCall: (@Sendable (ModuleCall, Duration) -> Void)? = nil) -> NavigationSession {
        NavigationSession(registry: registry, policy: configuration.callPolicy, handOff: handOff, logger: logger, interruption: interruption,
                          onSlowCall: onSlowCall, sessions: sessions, callObserver: callObserver, appName: { [weak self] in self?.appName ?? "Den" })
    }
}

/// One plugin file a start will load, with its manifest when den could read it without loading it.
struct PlannedModule {
    var candidate: PluginDiscovery.Candidate
    var stamp: FileStamp?
    var manifest: ModuleManifest?
}

/// A file's device and inode: the same for every path (link, second folder) that reaches it.
private struct FileIdentity: Hashable {
    package let device: UInt64
    package let inode: UInt64

    package init(_ stamp: FileStamp) {
        device = stamp.device
        inode = stamp.inode
    }
}
