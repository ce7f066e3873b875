import CDenABI
import DenKit
import DenSupport
import FoundationEssentials
import Synchronization

/// A module installed from its manifest whose file is not loaded yet: its routes are in the
/// route table, but no code of it has run. The first build of one of its routes loads the file
/// (copy, checks, `dlopen`, entry point, registration checked against the manifest) and every
/// later build uses the loaded builders. Thread-safe: concurrent first builds wait for one load.
final class LazyModule: Sendable {
    /// The plugin file's path (a `URL` per module costs a start with many modules).
    let filePath: String
    var file: URL { URL(fileURLWithPath: filePath, isDirectory: false) }
    let manifest: ModuleManifest
    /// The file's identity when `manifest` was read from it (nil: unknown, so it is read again).
    let stamp: FileStamp?
    private let loader: PluginLoader
    /// Told how the load went; one closure serves every lazy module of a runtime.
    private let onLoad: LoadHandler

    typealias LoadHandler = @Sendable (LazyModule, Result<LoadedPlugin, PluginLoadError>) -> Void
    private let state = Mutex<State>(.waiting)

    private enum State: @unchecked Sendable {
        case waiting
        /// The loaded routes by pattern, the `den_host` the module was given, and the gate its
        /// builders are called through.
        case loaded([String: PluginRoute], host: UnsafePointer<den_host>, gate: BuilderGate)
        case failed(PluginLoadError)
    }

    init(filePath: String, manifest: ModuleManifest, stamp: FileStamp? = nil, loader: PluginLoader,
         onLoad: @escaping LoadHandler) {
        self.filePath = filePath
        self.manifest = manifest
        self.stamp = stamp
        self.loader = loader
        self.onLoad = onLoad
    }

    /// True once the file was loaded (or failed to load).
    var isSettled: Bool {
        state.withLock { if case .waiting = $0 { false } else { true } }
    }

    /// Loads the file unless that happened already (a call of one of its exports, or a listing of
    /// every export, needs the module's code although none of its routes was opened); the load's
    /// error, if it failed.
    @discardableResult
    func ensureLoaded() -> PluginLoadError? {
        state.withLock { state -> PluginLoadError? in
            loadIfWaiting(&state)
            if case .failed(let error) = state { return error }
            return nil
        }
    }

    private func loadIfWaiting(_ state: inout State) {
        guard case .waiting = state else { return }
        let result = load()
        switch result {
        case .success(let plugin):
            state = .loaded(Dictionary(plugin.routes.map { ($0.pattern, $0) }, uniquingKeysWith: { a, _ in a }), host: plugin.host,
                            gate: BuilderGate())
        case .failure(let error): state = .failed(error)
        }
        onLoad(self, result)
    }

    /// The loaded route for `pattern`, the module's `den_host` and its builders' gate, loading the
    /// file on the first call.
    func route(_ pattern: String) -> Result<(route: PluginRoute, host: UnsafePointer<den_host>, gate: BuilderGate), PluginLoadError> {
        state.withLock { state -> Result<(route: PluginRoute, host: UnsafePointer<den_host>, gate: BuilderGate), PluginLoadError> in
            loadIfWaiting(&state)
            switch state {
            case .waiting: return .failure(PluginLoadError(file: filePath, cause: .changedSinceStart("it was not loaded")))
            case .failed(let error): return .failure(error)
            case .loaded(let routes, let host, let gate):
                guard let route = routes[pattern] else {
                    return .failure(PluginLoadError(file: filePath, cause: .changedSinceStart("it no longer registers '\(pattern)'")))
                }
                return .success((route, host, gate))
            }
        }
    }

    private func load() -> Result<LoadedPlugin, PluginLoadError> {
        let plugin: LoadedPlugin
        do {
            plugin = try loader.load(file, known: stamp.map { PluginLoader.KnownManifest(stamp: $0, manifest: manifest) })
        } catch {
            return .failure(error)
        }
        // The file may have been replaced since den read its manifest: the routes in the table
        // are the old manifest's, so only the same manifest may serve them.
        guard let loaded = plugin.manifest else {
            plugin.endpoint?.revoke()
            return .failure(PluginLoadError(file: filePath, cause: .changedSinceStart("it no longer has a manifest")))
        }
        guard loaded == manifest else {
            plugin.endpoint?.revoke()
            let differences = manifest.differences(from: loaded)
            return .failure(PluginLoadError(file: filePath, cause: .changedSinceStart(
                "its manifest is not the one den started with (\(differences.isEmpty ? "its exports changed" : differences.joined(separator: "; ")))")))
        }
        plugin.endpoint?.attribute(to: plugin.id, permissions: plugin.manifest?.permissions ?? .nothing)
        return .success(plugin)
    }

    /// Stands in for a builder until the file is loaded; never called (`RouteTarget.loaded()`).
    nonisolated(unsafe) static let placeholderBuilder: den_builder_fn = { _, _, _, _, _, _ in Int32(DEN_ERR_INTERNAL.rawValue) }
}

extension RouteTarget {
    /// This target with its module's real builder: loads a lazily installed module the first
    /// time one of its routes is built. A module that cannot be loaded fails the build with the
    /// loader's message (the file, what is wrong, what to do).
    func loaded() throws(ModuleCallError) -> RouteTarget {
        guard let lazy = route.lazy else { return self }
        switch lazy.route(route.pattern) {
        case .success(let real):
            var target = self
            target.route = real.route
            target.host = real.host
            target.gate = real.gate
            return target
        case .failure(let error):
            throw ModuleCallError(moduleID: moduleID, status: Int32(DEN_ERR_INTERNAL.rawValue),
                                  message: "the module could not be loaded: \(error.description)")
        }
    }
}
