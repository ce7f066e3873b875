import DenKit
import DenModuleFiles
import DenSupport
import FoundationEssentials
import DenPermissions

extension DenRuntime {
    /// Installs the module of `candidate` from its manifest, without loading the file; a module
    /// the trust policy refuses, whose requirements are unmet, or that asks for more than was
    /// granted is recorded as refused instead.
    func installFromManifest(_ candidate: PluginDiscovery.Candidate, manifest: ModuleManifest, stamp: FileStamp?,
                             lazyLoader: PluginLoader, onLoad: @escaping LazyModule.LoadHandler) {
        // The file's path, not a URL: a URL per module costs a start with many modules ≈ 5,000
        // instructions each (one is made when the module loads).
        let filePath = candidate.path
        // Its signature is judged now, from the file (the staged copy is judged again when it
        // loads): a module the policy refuses never gets into the route table.
        var signature: SignatureState?
        if let trust = loader.trust {
            let state = trust.state(checking: filePath, signedAs: filePath, id: manifest.id, version: manifest.version, stamp: stamp)
            if let refusal = trust.refusal(state, file: filePath, moduleID: manifest.id, sandboxedWorkers: isolation?.sandbox ?? false) {
                registry.recordFailure(refusal, file: candidate.file, refusedRoutes: manifest.routes.map(\.pattern))
                logger.error("\(refusal)")
                return
            }
            signature = state
        }
        // Nor does a module whose requirements the modules installed before it do not meet.
        if let problem = loader.requirements?(manifest) {
            let refusal = PluginLoadError(file: filePath, cause: .requirementUnmet(problem), moduleID: manifest.id)
            registry.recordFailure(refusal, file: candidate.file, refusedRoutes: manifest.routes.map(\.pattern))
            logger.error("\(refusal)")
            return
        }
        // A module that asks for more than was granted never gets into the route table either.
        if let book = loader.permissions, let held = book.admit(manifest, filePath: filePath) {
            let refusal = PluginLoadError(file: filePath, cause: held.cause, moduleID: manifest.id)
            registry.recordFailure(refusal, file: candidate.file, refusedRoutes: manifest.routes.map(\.pattern))
            logger.error("\(refusal)")
            return
        }
        // No `den_host` yet: the module gets its own when it loads (six allocations a module
        // spared at start, most of them never needed).
        let lazy = LazyModule(filePath: filePath, manifest: manifest, stamp: stamp, loader: lazyLoader, onLoad: onLoad)
        let routes = manifest.routes.map {
            PluginRoute(pattern: $0.pattern, requiresLogin: $0.requiresLogin, build: LazyModule.placeholderBuilder,
                        context: nil, lazy: lazy)
        }
        let record = registry.install(LoadedPlugin(
            filePath: filePath, loadedCopyPath: filePath, id: manifest.id, version: manifest.version, summary: manifest.summary,
            routes: routes, settings: manifest.settings, manifest: manifest, signature: signature, host: ServiceEndpoint.notLoadedHost,
            endpoint: nil, library: .processImage, fileName: candidate.fileName), lazy: lazy)
        if let error = record.error {
            logger.error("\(error)")
        } else {
            logger.debug("\(candidate.fileName): module \(manifest.id) installed from its manifest; loaded when first opened")
        }
    }

    /// What a lazy module's first load tells the registry: one closure for all of them (made once
    /// per start), since a closure per module was an allocation per module.
    func lazyModuleLoadHandler() -> LazyModule.LoadHandler {
        { [registry, logger] lazy, result in
            let filePath = lazy.filePath, id = lazy.manifest.id
            switch result {
            case .success(let plugin):
                logger.debug("""
                    loaded \(plugin.id) \(plugin.version) from \(filePath) on first use \
                    (\(plugin.reusedCopy ? "reused cached copy" : "staged new copy") \(plugin.loadedCopy.lastPathComponent))
                    """)
                registry.updateRecord(filePath: filePath, id: id) { record in
                    record.isLoaded = true
                    record.loadedAt = Date()
                    record.settings = plugin.settings
                    record.isolated = plugin.isolated
                    record.signature = plugin.signature ?? record.signature
                }
                registry.exports.set(plugin.exports.map { $0.bound(to: plugin.id, host: plugin.host) }, of: plugin.id)
            case .failure(let error):
                logger.error("\(error)")
                registry.updateRecord(filePath: filePath, id: id) { record in
                    record.isLoaded = true
                    record.status = .failed(error)
                }
            }
        }
    }

    /// Writes the registry cache back if it changed, saying at debug level how it was used.
    func saveManifestIndex(_ index: inout ManifestIndex) {
        if let problem = index.loadProblem { logger.debug("module registry cache \(index.file.path): \(problem)") }
        logger.debug("module registry cache: \(index.hits) unchanged file(s), \(index.misses) read anew")
        if let problem = index.save() { logger.warning("\(problem)") }
    }
}
