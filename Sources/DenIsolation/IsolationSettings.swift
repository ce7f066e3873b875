import CDenABI
import DenHost
import CDenProcess
import DenLibraryClients
import DenSupport
import FoundationEssentials
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What every isolated module of a runtime shares: how to start a worker, its limits, and the
/// quarantine book.
package final class IsolationSettings: ModuleIsolation {
    package let policy: HostingPolicy
    /// The `den` executable that runs workers (`den worker`).
    package let workerExecutable: String
    package var sandbox: Bool { policy.sandbox }
    package var memoryLimit: UInt64 { policy.memoryLimit }
    package let callPolicy: ModuleCallPolicy
    package let quarantine: QuarantineBook
    /// Folders a sandboxed worker may still read (landlock): the system's and Swift's libraries,
    /// which the module may open lazily, and the locale and time-zone data. Never /etc or /home.
    package let readablePaths: [String]
    /// Told when a module is quarantined (the runtime logs it).
    package let onQuarantine: (@Sendable (String, String) -> Void)?
    /// Told when a module's worker ended (crashed, or was killed for a hang) and is started again.
    package let onCrash: (@Sendable (String, String) -> Void)?
    private let modules = Mutex<[String: IsolatedModule]>([:])

    package init(policy: HostingPolicy, workerExecutable: String, callPolicy: ModuleCallPolicy, quarantine: QuarantineBook,
                 onQuarantine: (@Sendable (String, String) -> Void)? = nil, onCrash: (@Sendable (String, String) -> Void)? = nil) {
        self.policy = policy
        self.workerExecutable = workerExecutable
        self.callPolicy = callPolicy
        self.quarantine = quarantine
        self.onQuarantine = onQuarantine
        self.onCrash = onCrash
        var readable = ["/usr/lib", "/lib", "/lib64", "/usr/lib64", "/usr/share/zoneinfo", "/usr/share/locale", "/usr/lib/locale"]
        // The Swift runtime's folder (a toolchain outside /usr, e.g. /opt/swift).
        var name = [CChar](repeating: 0, count: 4096)
        if den_image_path_of_symbol("swift_retain", &name, name.count) == 0 {
            readable.append(Self.folder(of: String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        readable.append(Self.folder(of: workerExecutable))
        readablePaths = readable
    }

    /// The isolated module loaded from `filePath` (the newest, after a hot swap).
    package func module(forFile filePath: String) -> IsolatedModule? {
        modules.withLock { $0[filePath] }
    }

    /// Every isolated module by file.
    package var all: [IsolatedModule] { modules.withLock { Array($0.values) } }

    package func remember(_ module: any IsolatedHosting) {
        guard let module = module as? IsolatedModule else { return }
        // A hot swap's new version takes the file's place; the old version's worker keeps serving
        // the screens that still use it until they move to the new one.
        let older = modules.withLock { $0.updateValue(module, forKey: module.filePath) }
        if let older, older !== module { module.replaced(older) }
    }

    /// `den` beside the running executable: the worker is den itself.
    package static func defaultWorkerExecutable() -> String {
        if let layout = InstallLayout.current { return layout.executableDirectory.appendingPathComponent("den").path }
        return "den"
    }
}

extension HostConfiguration {
    /// Runs the modules `hosting` (or the trust policy) isolates in worker processes of their own:
    /// `den worker`, found beside this program unless `workerExecutable` says where. Without
    /// this, a runtime refuses every module it would isolate (docs/ISOLATION.md).
    public mutating func useWorkerIsolation() {
        makeIsolation = IsolationSettings.make
    }
}

extension IsolationSettings {
    /// The runtime's isolation (`HostConfiguration.makeIsolation`): workers run by `den worker`,
    /// a quarantine book in the data folder, crashes and quarantines told in the runtime's log.
    package static let make: @Sendable (IsolationRequest) -> any ModuleIsolation = { request in
        let logger = request.logger
        return IsolationSettings(
            policy: request.policy, workerExecutable: request.workerExecutable ?? defaultWorkerExecutable(), callPolicy: request.callPolicy,
            quarantine: QuarantineBook(directory: request.dataDirectory, crashes: request.policy.crashesToQuarantine),
            onQuarantine: { module, why in logger.error("module '\(module)' \(why)") },
            onCrash: { module, what in logger.warning("module '\(module)': \(what)", metadata: ["module": "\(module)"]) })
    }

    /// A path's folder ("/" for a file at the root, "." for a bare name).
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

extension IsolationSettings {
    /// Loads the module in a worker process: the worker runs the entry point, and what it
    /// registered is replayed here through a registrar of the host's own, so every rule is
    /// checked on this side as well (docs/ISOLATION.md).
    package func load(_ file: IsolatedFile, hub: ServiceHub, logger: Logger?) throws(PluginLoadError) -> LoadedPlugin {
        let (filePath, copyPath, fileName, manifest) = (file.filePath, file.copyPath, file.fileName, file.manifest)
        let hash = ContentHash.of(path: copyPath)
        if let entry = quarantine.entries.first(where: { $0.hash == hash }) {
            throw PluginLoadError(file: filePath, cause: .quarantined(entry.reason), moduleID: manifest?.id)
        }
        let endpoint = hub.makeEndpoint(file: fileName)
        let recorder = RegistrationRecorder(file: fileName, logger: logger)
        let module = IsolatedModule(filePath: filePath, copyPath: copyPath, fileName: fileName, endpoint: endpoint,
                                    settings: self, contentHash: hash)
        var fault: WorkerFault?
        let status = recorder.withRegistrar { _ in
            do throws(WorkerFault) { return try module.register(into: recorder) } catch {
                fault = error
                return Int32(DEN_ERR_INTERNAL.rawValue)
            }
        }
        endpoint.settings.close()
        let knownID = manifest?.id ?? recorder.id
        func fail(_ cause: PluginLoadError.Cause) -> PluginLoadError {
            endpoint.revoke()
            module.retire()
            return PluginLoadError(file: filePath, cause: cause, moduleID: knownID)
        }
        if let fault { throw fail(.workerFailed(fault.message)) }
        let problems = module.workerProblems + recorder.problems
        guard status == DEN_OK.rawValue else { throw fail(.entryFailed(status: status, detail: problems.first)) }
        guard let id = recorder.id, let version = recorder.version else {
            throw fail(.invalidRegistration(problems.first ?? "it never called describe"))
        }
        if let problem = problems.first ?? endpoint.settings.problem { throw fail(.invalidRegistration(problem)) }
        var exports = recorder.exports
        for index in exports.indices { exports[index].remote = module }
        var plugin = LoadedPlugin(filePath: filePath, loadedCopyPath: copyPath, id: id, version: version, summary: recorder.summary ?? "",
                                  routes: recorder.routes, settings: endpoint.settings.settings, exports: exports,
                                  host: endpoint.host, endpoint: endpoint, library: DynamicLibrary.processImage, fileName: fileName)
        plugin.isolated = module
        if let manifest {
            let differences = manifest.differences(from: plugin.registeredManifest)
            guard differences.isEmpty else { throw fail(.manifestMismatch(differences)) }
            plugin.manifest = manifest
        }
        return plugin
    }
}
