import CDenABI
import DenExports
import DenKit
import DenModuleFiles
import DenSupport
import FoundationEssentials
import Logging
import DenPermissions

/// A plugin whose entry point ran and registered itself.
public struct LoadedPlugin: @unchecked Sendable {
    /// The plugin file's path (a `URL` per module costs a start with many modules: see `file`).
    package var filePath: String
    package var file: URL { URL(fileURLWithPath: filePath, isDirectory: false) }
    /// The path of the copy that was actually `dlopen`ed (see `PluginCache`).
    package var loadedCopyPath: String
    package var loadedCopy: URL { URL(fileURLWithPath: loadedCopyPath, isDirectory: false) }
    /// True when an earlier run had already copied this version into the cache.
    package var reusedCopy: Bool = false
    package var id: String
    package var version: String
    package var summary: String
    package var routes: [PluginRoute]
    /// What the module declared with `settings.declare` while it loaded (none for older plugins).
    package var settings: [SettingDefinition] = []
    /// What the module exported with `add_export` (ABI revision 2).
    package var exports: [PluginExport] = []
    /// The file's `den_manifest`, which the registration was checked against (nil: it has none).
    package var manifest: ModuleManifest?
    /// What its signature says (nil: den was not asked to check signatures).
    package var signature: SignatureState?
    /// The `den_host` this plugin was given; its builders get the same pointer. For a module
    /// installed from its manifest this is always `ServiceEndpoint.notLoadedHost`: its builds get
    /// the loaded module's own host from `RouteTarget.loaded()`.
    package let host: UnsafePointer<den_host>
    /// nil for a module installed from its manifest: it gets one when it loads (`LazyModule`).
    package let endpoint: ServiceEndpoint?
    package let library: DynamicLibrary
    /// `file`'s last component.
    package var fileName: String
    /// Set when the module runs in a worker process (docs/ISOLATION.md).
    package var isolated: (any IsolatedHosting)? = nil

    package init(filePath: String, loadedCopyPath: String, id: String, version: String, summary: String, routes: [PluginRoute],
                 settings: [SettingDefinition] = [], exports: [PluginExport] = [], manifest: ModuleManifest? = nil,
                 signature: SignatureState? = nil, host: UnsafePointer<den_host>, endpoint: ServiceEndpoint?,
                 library: DynamicLibrary, fileName: String) {
        self.filePath = filePath
        self.loadedCopyPath = loadedCopyPath
        self.id = id
        self.version = version
        self.summary = summary
        self.routes = routes
        self.settings = settings
        self.exports = exports
        self.manifest = manifest
        self.signature = signature
        self.host = host
        self.endpoint = endpoint
        self.library = library
        self.fileName = fileName
    }
}

/// Loads one plugin file: checks its header, loads a private copy, checks the ABI version and the
/// toolchain before running any plugin code, then calls the entry point. Never `dlclose`s.
public struct PluginLoader: Sendable {
    package let cache: PluginCache
    package let hub: ServiceHub
    /// Where late registrar calls are reported.
    package let logger: Logger?
    /// Which modules run isolated (`--isolate`, `den.hosting`).
    package let hosting: HostingPolicy
    /// How isolated modules are run; nil: every module runs in-process.
    package let isolation: (any ModuleIsolation)?
    /// Checks signatures and the trust policy before any plugin code runs (nil: no checks).
    package let trust: ModuleTrust?
    /// Holds a module that asks for more than the user granted, before any of its code runs
    /// (nil: no grants kept; the manifest alone bounds what it may do).
    package let permissions: PermissionBook?
    /// Why a module may not load beside the modules active now, from its manifest, before any of
    /// its code runs (`requires`; docs/CATALOG.md); nil: not checked.
    package let requirements: (@Sendable (ModuleManifest) -> String?)?

    public init(cache: PluginCache, hub: ServiceHub, logger: Logger? = nil) {
        self.init(cache: cache, hub: hub, logger: logger, hosting: HostingPolicy(), isolation: nil, trust: nil)
    }

    package init(cache: PluginCache, hub: ServiceHub, logger: Logger? = nil, hosting: HostingPolicy, isolation: (any ModuleIsolation)?,
                 trust: ModuleTrust?, permissions: PermissionBook? = nil, requirements: (@Sendable (ModuleManifest) -> String?)? = nil) {
        self.requirements = requirements
        self.hosting = hosting
        self.cache = cache
        self.hub = hub
        self.logger = logger
        self.isolation = isolation
        self.trust = trust
        self.permissions = permissions
    }

    /// This loader without the requirement check, for a module installed from its manifest: it
    /// passed the check at start, and a later swap of what it requires is held at its export calls
    /// (`ExportsService`), not by keeping it from loading when it is first opened.
    package var skippingRequirements: PluginLoader {
        PluginLoader(cache: cache, hub: hub, logger: logger, hosting: hosting, isolation: isolation, trust: trust, permissions: permissions)
    }

    /// Loads `file`, giving it a `den_host` of its own.
    public func load(_ file: URL) throws(PluginLoadError) -> LoadedPlugin {
        try load(file, known: nil)
    }

    /// A manifest the registry cache read from the file when it had `stamp`, with its ABI
    /// version and toolchain already found to be this host's (`ManifestIndex.lazyManifest`).
    package struct KnownManifest: Sendable {
        var stamp: FileStamp
        var manifest: ModuleManifest
    }

    /// Loads `file`; `known` spares reading its symbol table again when the staged copy is of
    /// the very version the manifest was read from (same device, inode, size and modification
    /// time: the registry cache's own rule).
    package func load(_ file: URL, known: KnownManifest?) throws(PluginLoadError) -> LoadedPlugin {
        let staged = try cache.stageCopy(file)
        do {
            let trusted = known.flatMap { $0.stamp == staged.source ? $0.manifest : nil }
            var plugin = try load(file, from: staged.url, knownManifest: trusted)
            plugin.reusedCopy = staged.reused
            return plugin
        } catch {
            // A copy of a file that failed never loads later (a fixed file gets a new name).
            cache.discard(staged.url)
            throw error
        }
    }

    private func load(_ file: URL, from copy: URL, knownManifest: ModuleManifest?) throws(PluginLoadError) -> LoadedPlugin {
        // Check the copy, the file dlopen will map: the original may be rewritten meanwhile (a
        // build in progress), and a copy never changes once written.
        try checkHeader(of: copy, reportedAs: file)
        // The ABI version and the toolchain are read from the file: dlopen would already run
        // the plugin's constructors and register its Swift types with the runtime for good.
        // A manifest the registry cache holds for this very version was read and checked so
        // (≈ 170,000 instructions and eight reads of a module's first build).
        let (exportsChecked, manifest): (Bool, ModuleManifest?)
        if let knownManifest { (exportsChecked, manifest) = (true, knownManifest) } else { (exportsChecked, manifest) = try checkExports(of: copy, reportedAs: file) }
        do {
            return try load(file, from: copy, manifest: manifest, exportsChecked: exportsChecked)
        } catch {
            // A route of a refused module then opens a screen saying why, not "not found".
            var error = error
            error.manifestRoutes = manifest.map { $0.routes.map(\.pattern) }
            throw error
        }
    }

    private func load(_ file: URL, from copy: URL, manifest: ModuleManifest?, exportsChecked: Bool) throws(PluginLoadError) -> LoadedPlugin {
        var knownID = manifest?.id // then from describe
        // Paths without URL.path's first-use cost (URL+FilePath.swift): a first build runs this.
        let filePath = file.filePath, fileName = file.fileName, copyPath = copy.filePath
        func fail(_ cause: PluginLoadError.Cause) -> PluginLoadError { PluginLoadError(file: filePath, cause: cause, moduleID: knownID) }
        // Trust is judged on the copy too, the bytes dlopen maps: a file swapped after it was
        // checked is never the one that runs.
        var signature: SignatureState?
        var mustIsolate = false
        if let trust {
            let state = trust.state(checking: copyPath, signedAs: filePath, id: manifest?.id, version: manifest?.version)
            signature = state
            if let refusal = trust.refusal(state, file: filePath, moduleID: knownID, sandboxedWorkers: isolation?.sandbox ?? false) { throw refusal }
            // isolate-unsigned: such a module runs only in a sandboxed worker, never here.
            if case .isolated = trust.decide(state) { mustIsolate = true }
        }
        if let requirements, let manifest, let problem = requirements(manifest) { throw fail(.requirementUnmet(problem)) }
        if let permissions, let manifest, let held = permissions.admit(manifest, filePath: filePath) { throw fail(held.cause) }
        if let isolation, mustIsolate || hosting.mode(moduleID: manifest?.id, fileName: fileName) == .isolated {
            let plugin = try isolation.load(IsolatedFile(filePath: filePath, copyPath: copyPath, fileName: fileName, manifest: manifest),
                                            hub: hub, logger: logger)
            return try keepIsolated(plugin, signature: signature, isolation: isolation, fail: fail)
        }
        // Without a manifest a module tells its id only by running. While --isolate or den.hosting
        // names module ids, its code first runs in a worker, never here: it comes into den's
        // process only once its id turns out not to be one of them (docs/ISOLATION.md).
        if manifest == nil, let isolation, hosting.namesModules {
            let probed: LoadedPlugin
            do {
                probed = try isolation.load(IsolatedFile(filePath: filePath, copyPath: copyPath, fileName: fileName, manifest: nil),
                                            hub: hub, logger: logger)
            } catch {
                guard case .workerFailed(let detail) = error.cause else { throw error }
                throw PluginLoadError(file: filePath, cause: .idUnknown(detail), moduleID: error.moduleID)
            }
            if hosting.mode(moduleID: probed.id, fileName: fileName) == .isolated {
                return try keepIsolated(probed, signature: signature, isolation: isolation, fail: fail)
            }
            probed.endpoint?.revoke()
            probed.isolated?.retire()
        }
        let library: DynamicLibrary
        do {
            library = try CrashNote.during(CrashNote.loading(filePath)) { () throws(DynamicLibraryError) in try DynamicLibrary.open(copyPath) }
        } catch {
            // dlerror names the copy; users know the original.
            throw fail(.openFailed(error.message.replacing(copyPath, with: fileName)))
        }
        if !exportsChecked {
            // A library stripped of section headers: check through the loader instead.
            guard let abiSymbol = library.symbol(DEN_ABI_VERSION_SYMBOL) else { throw fail(.missingSymbol(DEN_ABI_VERSION_SYMBOL)) }
            try check(abi: abiSymbol.load(as: UInt32.self), file: file)
            if let toolchainSymbol = library.symbol(DEN_TOOLCHAIN_SYMBOL) {
                try check(toolchain: String(cString: toolchainSymbol.assumingMemoryBound(to: CChar.self)), file: file)
            }
        }
        guard let entrySymbol = library.symbol(DEN_ENTRY_SYMBOL) else { throw fail(.missingSymbol(DEN_ENTRY_SYMBOL)) }
        let entry = unsafeBitCast(entrySymbol, to: den_module_entry_fn.self)

        // Service calls count as the module's only once the registry has installed it: during
        // den_module_entry it gets only what any loading plugin gets (log, settings.declare).
        let endpoint = hub.makeEndpoint(file: fileName)
        let recorder = RegistrationRecorder(file: fileName, logger: logger)
        let status = CrashNote.during(CrashNote.loading(filePath)) { recorder.withRegistrar { entry(endpoint.host, $0) } }
        endpoint.settings.close()
        knownID = knownID ?? recorder.id
        guard status == DEN_OK.rawValue else {
            endpoint.revoke()
            throw fail(.entryFailed(status: status, detail: recorder.problems.first))
        }
        guard let id = recorder.id, let version = recorder.version else {
            endpoint.revoke()
            throw fail(.invalidRegistration(recorder.problems.first ?? "it never called describe"))
        }
        if let problem = recorder.problems.first ?? endpoint.settings.problem {
            endpoint.revoke()
            throw fail(.invalidRegistration(problem))
        }
        // Without a manifest the signed id and version can only be held to the registration.
        if case .signed(_, _, let signedID, let signedVersion)? = signature,
           let problem = ModuleTrust.mismatch(signedID: signedID, signedVersion: signedVersion, id: id, version: version) {
            endpoint.revoke()
            throw fail(.untrusted(reason: "its signature does not hold: \(problem)",
                                  fix: "sign the module again (den modules sign <file>) if you built it; otherwise get the file again from its publisher"))
        }
        var plugin = LoadedPlugin(filePath: filePath, loadedCopyPath: copyPath, id: id, version: version, summary: recorder.summary ?? "",
                                  routes: recorder.routes, settings: endpoint.settings.settings, exports: recorder.exports,
                                  host: endpoint.host,
                                  endpoint: endpoint, library: library, fileName: fileName)
        plugin.signature = signature
        if let manifest {
            let differences = manifest.differences(from: plugin.registeredManifest)
            guard differences.isEmpty else {
                endpoint.revoke()
                throw fail(.manifestMismatch(differences))
            }
            plugin.manifest = manifest
        }
        return plugin
    }

    /// An isolated module's signature held to what its worker registered; the module is then
    /// remembered as the file's (a hot swap replaces it).
    private func keepIsolated(_ plugin: LoadedPlugin, signature: SignatureState?, isolation: any ModuleIsolation,
                              fail: (PluginLoadError.Cause) -> PluginLoadError) throws(PluginLoadError) -> LoadedPlugin {
        var plugin = plugin
        if case .signed(_, _, let signedID, let signedVersion)? = signature,
           let problem = ModuleTrust.mismatch(signedID: signedID, signedVersion: signedVersion, id: plugin.id, version: plugin.version) {
            plugin.endpoint?.revoke()
            plugin.isolated?.retire()
            throw fail(.untrusted(reason: "its signature does not hold: \(problem)",
                                  fix: "sign the module again (den modules sign <file>) if you built it; otherwise get the file again from its publisher"))
        }
        plugin.signature = signature
        if let module = plugin.isolated { isolation.remember(module) }
        return plugin
    }

    /// Checks the ABI version, the toolchain and the manifest from the file; false when the file
    /// has no section headers to read them from (then the manifest is not read either).
    private func checkExports(of copy: URL, reportedAs file: URL) throws(PluginLoadError) -> (Bool, ModuleManifest?) {
        guard let reader = ELFSymbolReader(path: copy.filePath) else { return (false, nil) }
        defer { reader.finish() }
        let probe = ManifestProbe.read(reader)
        guard let abi = probe.abiVersion else {
            throw PluginLoadError(file: file.path, cause: probe.abiVersionProblem)
        }
        try check(abi: abi, file: file)
        if let toolchain = probe.toolchain {
            try check(toolchain: toolchain, file: file)
        }
        switch probe.manifest {
        case nil: return (true, nil)
        case .success(let manifest): return (true, manifest)
        case .failure(let problem): throw PluginLoadError(file: file.path, cause: .invalidManifest(problem.description))
        }
    }

    private func check(abi: UInt32, file: URL) throws(PluginLoadError) {
        guard abi == DEN_ABI_VERSION else {
            throw PluginLoadError(file: file.path, cause: .abiMismatch(found: abi, expected: DEN_ABI_VERSION))
        }
    }

    private func check(toolchain: String, file: URL) throws(PluginLoadError) {
        guard toolchain == DenModule.toolchain else {
            throw PluginLoadError(file: file.path, cause: .toolchainMismatch(found: toolchain, expected: DenModule.toolchain))
        }
    }

    private func checkHeader(of copy: URL, reportedAs file: URL) throws(PluginLoadError) {
        func fail(_ cause: PluginLoadError.Cause) -> PluginLoadError { PluginLoadError(file: file.path, cause: cause) }
        let header: ELFHeader?, fileSize: UInt64
        do {
            (header, fileSize) = try ELFHeader.read(copy)
        } catch {
            throw fail(.unreadable(error.description))
        }
        if fileSize == 0 { throw fail(.emptyFile) }
        guard let header, header.isELF else { throw fail(.notELF) }
        let host = ELFHeader.hostMachine
        if header.machine != host.machine || header.is64Bit != host.is64Bit {
            throw fail(.wrongArchitecture(found: ELFHeader.architecture(of: header.machine, is64Bit: header.is64Bit),
                                          expected: ELFHeader.architecture(of: host.machine, is64Bit: host.is64Bit)))
        }
        if header.requiredSize > fileSize { throw fail(.truncated(size: fileSize, required: header.requiredSize)) }
    }
}

extension LoadedPlugin {
    /// What the plugin registered, in the manifest's terms (a module built before ABI revision 2
    /// registers no exports).
    package var registeredManifest: ModuleManifest {
        ModuleManifest(id: id, version: version, summary: summary,
                       routes: routes.map { ModuleManifest.Route($0.pattern, requiresLogin: $0.requiresLogin) },
                       settings: settings,
                       exports: exports.map { ModuleManifest.Export(name: $0.function, signature: $0.signature.description) })
    }
}
