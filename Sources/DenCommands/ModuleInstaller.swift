import DenHost
import DenIsolation
import DenLibraryClients
import DenSupport
import DenTrust
import DenKit
import Foundation
import Logging
import DenModuleFiles

/// Installs module files into the user's modules folder and removes them, checking first that
/// the result loads: what `den modules install|remove` do.
struct ModuleInstaller {
    let userFolder: URL
    let bundledFolder: URL?
    let cacheDirectory: URL
    /// The trust policy and lists a den started now would use: the new module is held to them.
    let trust: ModuleTrust?
    /// Why the trust policy cannot be known (a bad DEN_TRUST_POLICY or policy file).
    let trustProblem: String?

    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// What the refused module logged while it loaded, shown before the refusal (its fix
        /// text points up at them).
        var moduleLog: [String] = []
    }

    /// `trustPolicy`: `--trust-policy` as typed, which beats the environment and the policy file.
    init(environment: [String: String], cacheDirectory: URL?, trustPolicy: String? = nil) {
        userFolder = InstallLayout.userModulesDirectory(environment: environment)
        bundledFolder = InstallLayout.current?.bundledModulesDirectory
        self.cacheDirectory = cacheDirectory ?? PluginCache.defaultDirectory(environment: environment)
        switch TrustPolicySetting.resolve(option: trustPolicy, environment: environment) {
        case .success(let (policy, _)):
            trust = ModuleTrust(policy: policy, trustFiles: TrustPolicySetting.trustFiles(environment: environment),
                                cacheDirectory: self.cacheDirectory)
            trustProblem = nil
        case .failure(let problem):
            trust = nil
            trustProblem = problem.description
        }
    }

    /// What `install` did.
    struct Installed {
        var description: String
        var id: String
        var version: String
        var target: URL
    }

    /// Checks `file` and copies it into the user folder. `consent` sees the checked module
    /// before anything is copied, and stops the install by throwing (the user said no).
    func install(_ file: URL, consent: (PluginRecord) throws -> Void = { _ in }) throws -> Installed {
        let inspection: ModuleFileInspection
        do {
            inspection = try ModuleFileInspection.inspect(file)
        } catch {
            throw Failure(description: "\(error)")
        }
        guard inspection.problems.isEmpty else {
            throw Failure(description: "\(file.path) cannot be installed:\n" + inspection.problems.map { "  \($0)" }.joined(separator: "\n"))
        }
        if let trustProblem { throw Failure(description: trustProblem) }
        guard file.pathExtension == "so" else {
            throw Failure(description: "\(file.lastPathComponent) does not end in .so, so den would not load it from a modules folder; rename it (e.g. lib<Name>Module.so)")
        }
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The installed modules, less the ones this file replaces: same file name, or same id.
        let installed = try installedFiles(dataDirectory: scratch.url.appendingPathComponent("data-installed"))
        let replaced = installed.filter { entry in
            entry.file.lastPathComponent == file.lastPathComponent || (inspection.manifest != nil && entry.id == inspection.manifest?.id)
        }
        let kept = try scratch.folder("installed")
        for entry in installed where !replaced.contains(where: { $0.file == entry.file }) {
            let link = kept.appendingPathComponent(entry.file.lastPathComponent)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: entry.file)
            // Its signature too: under require-signature a module the new one requires must load here.
            let signature = ModuleTrust.signaturePath(of: entry.file.path)
            if FileManager.default.fileExists(atPath: signature) {
                try FileManager.default.createSymbolicLink(atPath: ModuleTrust.signaturePath(of: link.path), withDestinationPath: signature)
            }
        }
        let candidateFolder = try scratch.folder("candidate")
        let candidate = candidateFolder.appendingPathComponent(file.lastPathComponent)
        try FileManager.default.copyItem(at: file, to: candidate)
        // Its signature goes with it: the check below verifies the pair as a den would load it.
        let signature = URL(fileURLWithPath: ModuleTrust.signaturePath(of: file.path))
        let signed = FileManager.default.fileExists(atPath: signature.path)
        if signed {
            try FileManager.default.copyItem(at: signature, to: URL(fileURLWithPath: ModuleTrust.signaturePath(of: candidate.path)))
        }

        // Load everything, as `den plugins` does: the new module's registration is checked
        // against its manifest, and against every module it would live beside.
        var configuration = HostConfiguration(pluginDirectories: [kept, candidateFolder], bundledDirectory: bundledFolder,
                                              cacheDirectory: cacheDirectory, dataDirectory: scratch.url.appendingPathComponent("data"),
                                              logLevel: .info)
        configuration.loadsLazily = false
        configuration.trust = trust
        configuration.useWorkerIsolation()
        let log = ModuleLoadLog()
        let runtime = DenRuntime(configuration: configuration, logger: log.logger)
        runtime.loadPlugins()
        guard let record = runtime.registry.plugins.first(where: { $0.file.path == candidate.path }) else {
            throw Failure(description: "\(file.path) was not taken for a module (is it a .so file?)")
        }
        if let error = record.error {
            // Lines name a module by its file name, then by its id: only a name no other loaded
            // file shares says it is the candidate (a bundled libAboutModule.so shares both).
            let others = runtime.registry.plugins.filter { $0.file.path != candidate.path }
            let fileName = candidate.lastPathComponent
            let ownFile = others.contains { $0.fileName == fileName } ? nil : fileName
            let ownID = record.id.flatMap { id in others.contains { $0.id == id } ? nil : id }
            throw Failure(description: "\(file.lastPathComponent) cannot be installed: \(error.reason) — \(error.fix)",
                          moduleLog: log.lines(file: ownFile, id: ownID))
        }
        let id = record.id ?? "?"
        if let other = replaced.first(where: { $0.id != nil && $0.id != id && $0.file.lastPathComponent == file.lastPathComponent }) {
            throw Failure(description: "\(userFolder.path) already has \(file.lastPathComponent) for module '\(other.id ?? "?")', not '\(id)'; rename the new file, or remove that module first with `den modules remove \(other.id ?? "?")`")
        }
        try consent(record)
        let target = userFolder.appendingPathComponent(file.lastPathComponent)
        let targetSignature = URL(fileURLWithPath: ModuleTrust.signaturePath(of: target.path))
        // The signature first: a den starting between the two renames sees the new signature
        // with the old file and refuses it for that run, never runs an unchecked file.
        if signed { try copyAtomically(signature, to: targetSignature) } else { try? FileManager.default.removeItem(at: targetSignature) }
        try copyAtomically(file, to: target)
        for old in replaced where old.file.path != target.path {
            try? FileManager.default.removeItem(at: old.file)
            try? FileManager.default.removeItem(atPath: ModuleTrust.signaturePath(of: old.file.path))
        }
        let verb = replaced.isEmpty ? "Installed" : "Replaced"
        let routes = record.routes.isEmpty ? "no routes" : "routes: " + record.routes.joined(separator: ", ")
        let publisher = record.signature.map { "; \(ModuleText.singleLine($0.text))" } ?? ""
        var hosting = ""
        if let trust, let state = record.signature, case .isolated(let reason) = trust.policy.decide(state) {
            hosting = " Under \(trust.policy.rawValue) it runs isolated and sandboxed, in a worker of its own (\(ModuleText.singleLine(reason)); docs/ISOLATION.md)."
        }
        return Installed(description: "\(verb) \(id) \(record.version ?? "") as \(target.path) (\(ModuleText.singleLine(routes))\(publisher)). Every den started from now on loads it.\(hosting)",
                         id: id, version: record.version ?? "", target: target)
    }

    /// Removes the user folder's file(s) of module `id`; returns what to tell the user.
    func remove(id: String) throws -> String {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let installed = try installedFiles(dataDirectory: scratch.url.appendingPathComponent("data"))
        let matching = installed.filter { $0.id == id }
        guard !matching.isEmpty else {
            let ids = installed.compactMap(\.id).sorted()
            let bundled = bundledFolder.map { folder in
                (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.compactMap(PluginDiscovery.moduleName(fromFile:)).map { $0.lowercased() } ?? []
            } ?? []
            if bundled.contains(where: { PluginDiscovery.hint($0, mayMatch: [id]) }) {
                throw Failure(description: "'\(id)' is a module bundled with den, not one in your modules folder; leave it out of a run with --plugins instead")
            }
            throw Failure(description: "no module '\(id)' in \(userFolder.path)\(ids.isEmpty ? " (it holds none)" : "; it holds: \(ids.joined(separator: ", "))")")
        }
        for entry in matching {
            do {
                try FileManager.default.removeItem(at: entry.file)
                try? FileManager.default.removeItem(atPath: ModuleTrust.signaturePath(of: entry.file.path))
            } catch {
                throw Failure(description: "cannot remove \(entry.file.path): \(error.localizedDescription)")
            }
        }
        return "Removed \(id) (\(matching.map(\.file.lastPathComponent).joined(separator: ", "))) from \(userFolder.path). A running den keeps it until it stops; its data stays in storage."
    }

    /// The user folder's module files and their ids (from the manifest, else by loading the file).
    /// The modules a den started now would run, bundled and yours, held to the trust policy:
    /// what a catalog install resolves against. Loaded from manifests where they have some, so
    /// no module code runs for them.
    func activeModules() throws -> [(id: String, version: String)] {
        try activeFiles().map { ($0.id, $0.version) }
    }

    /// `activeModules` with each module's file and what its manifest requires (`why`, `remove`).
    func activeRequirements() throws -> [(id: String, version: String, requires: [String: String])] {
        try activeFiles().map { module in
            (module.id, module.version, (try? ModuleFileInspection.inspect(module.file))?.manifest?.requires ?? [:])
        }
    }

    private func activeFiles() throws -> [(id: String, version: String, file: URL)] {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var configuration = HostConfiguration(pluginDirectories: [], bundledDirectory: bundledFolder, userDirectory: userFolder,
                                              cacheDirectory: cacheDirectory, dataDirectory: scratch.url.appendingPathComponent("data"),
                                              logLevel: .critical)
        configuration.loadsLazily = true
        configuration.trust = trust
        configuration.useWorkerIsolation()
        let runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins()
        return runtime.registry.plugins.filter(\.isActive).compactMap { record in record.id.map { ($0, record.version ?? "", record.file) } }
    }

    private func installedFiles(dataDirectory: URL) throws -> [(file: URL, id: String?)] {
        guard FileManager.default.fileExists(atPath: userFolder.path) else { return [] }
        var configuration = HostConfiguration(pluginDirectories: [], bundledDirectory: nil, userDirectory: userFolder,
                                              cacheDirectory: cacheDirectory, dataDirectory: dataDirectory,
                                              logLevel: .critical)
        configuration.loadsLazily = true // ids from manifests where there are some: no module code runs for them
        let runtime = DenRuntime(configuration: configuration)
        runtime.loadPlugins()
        return runtime.registry.plugins.map { ($0.file, $0.id) }
    }

    private func copyAtomically(_ file: URL, to target: URL) throws {
        let manager = FileManager.default
        let partial = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(getpid()).partial")
        do {
            try PrivateFolder.create(userFolder) // the XDG spec: a missing data folder is made 0700
            try? manager.removeItem(at: partial)
            try manager.copyItem(at: file, to: partial)
            // rename replaces an older version in one step; a running den keeps its own copy.
            guard rename(partial.path, target.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? manager.removeItem(at: partial)
            throw Failure(description: "cannot copy into \(userFolder.path): \(error.localizedDescription); make the folder writable (or set XDG_DATA_HOME)")
        }
    }

    /// A private temporary folder.
    private struct Scratch {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("den-install-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        func folder(_ name: String) throws -> URL {
            let folder = url.appendingPathComponent(name, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder
        }
        func remove() { try? FileManager.default.removeItem(at: url) }
    }
}
