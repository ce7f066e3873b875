import CDenABI
import DenKit
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
import DenPermissions
#endif

extension DenRuntime {
    /// Installs a DenKit module linked into this process — no `.so`, no cache copy — through the
    /// same registrar, settings declaration, C trampolines and registry checks as a loaded plugin,
    /// so it behaves exactly like one (route flags and conflicts included). For embedders and
    /// tests. The returned record's `error` says why it was refused, if it was.
    @discardableResult
    package func installInProcess(_ definition: ModuleDefinition) -> PluginRecord {
        let file = URL(fileURLWithPath: "/in-process/lib\(definition.id)Module.so")
        let endpoint = services.makeEndpoint(file: file.lastPathComponent)
        let recorder = RegistrationRecorder(file: file.lastPathComponent, logger: logger)
        let status = recorder.withRegistrar { registrar in
            DenModule.entry(host: UnsafeRawPointer(endpoint.host), registrar: UnsafeRawPointer(registrar), module: definition)
        }
        endpoint.settings.close()
        func refuse(_ cause: PluginLoadError.Cause) -> PluginRecord {
            endpoint.revoke()
            let error = PluginLoadError(file: file.path, cause: cause)
            registry.recordFailure(error, file: file)
            return PluginRecord(file: file, id: nil, version: nil, summary: nil, routes: [], status: .failed(error))
        }
        guard status == DEN_OK.rawValue else { return refuse(.entryFailed(status: status, detail: recorder.problems.first)) }
        guard let id = recorder.id, let version = recorder.version else {
            return refuse(.invalidRegistration(recorder.problems.first ?? "it never called describe"))
        }
        if let problem = recorder.problems.first ?? endpoint.settings.problem { return refuse(.invalidRegistration(problem)) }
        // The process's own image stands in for the plugin's: nothing is ever looked up in it.
        guard let process = dlopen(nil, RTLD_NOW) else { return refuse(.openFailed("dlopen(NULL) failed")) }
        var plugin = LoadedPlugin(
            filePath: file.filePath, loadedCopyPath: file.filePath, id: id, version: version, summary: recorder.summary ?? "",
            routes: recorder.routes, settings: endpoint.settings.settings, exports: recorder.exports, host: endpoint.host,
            endpoint: endpoint, library: DynamicLibrary(handle: process), fileName: file.fileName)
        // What its manifest would say, as a plugin file carries it (its navigation entries).
        plugin.manifest = ModuleManifest(definition)
        let record = registry.install(plugin)
        // A definition that declares no permissions is the embedder's own code: unchecked. One
        // that does is held to its grant like a module file (a first load records it).
        if record.isActive, definition.permissions == nil { endpoint.attribute(to: id, permissions: nil) }
        if record.isActive, definition.permissions != nil { _ = permissions.admit(plugin.manifest!, filePath: file.path) }
        return record
    }
}
