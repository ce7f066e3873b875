import CDenABI
import DenExports
import DenKit
import DenSupport
import FoundationEssentials

/// The exports of the installed modules, by `<module>.<function>`. A module's exports are set in
/// one step when it is installed (and replaced whole when a new version is). Thread-safe.
package final class ExportTable: @unchecked Sendable {
    private let lock = Lock()
    private var byModule: [String: [ModuleExport]] = [:]
    private var hooks: (loadModule: (@Sendable (String) -> Bool)?, loadEveryModule: (@Sendable () -> Void)?,
                        declaredExporters: (@Sendable () -> [String])?) = (nil, nil, nil)

    package init() {}

    /// Loads a module installed lazily (from its manifest) whose exports are asked for; true when
    /// it loaded. Set by the registry.
    package var loadModule: (@Sendable (String) -> Bool)? {
        get { lock.withLock { hooks.loadModule } }
        set { lock.withLock { hooks.loadModule = newValue } }
    }

    /// Loads every module not loaded yet, before a listing of every export. Set by the registry.
    package var loadEveryModule: (@Sendable () -> Void)? {
        get { lock.withLock { hooks.loadEveryModule } }
        set { lock.withLock { hooks.loadEveryModule = newValue } }
    }

    /// The ids of modules not loaded yet whose manifests list exports, for a message that says
    /// what exists without loading them. Set by the registry.
    package var declaredExporters: (@Sendable () -> [String])? {
        get { lock.withLock { hooks.declaredExporters } }
        set { lock.withLock { hooks.declaredExporters = newValue } }
    }

    /// Makes `exports` the exports of `moduleID`, replacing what it exported before.
    package func set(_ exports: [ModuleExport], of moduleID: String) {
        lock.withLock {
            // Most modules export nothing: with no exports anywhere there is nothing to remove
            // (a hash of the id per module at start, otherwise).
            if exports.isEmpty {
                if !byModule.isEmpty { byModule[moduleID] = nil }
            } else {
                byModule[moduleID] = exports
            }
        }
    }

    /// Every export, sorted by name (loading the modules not loaded yet first).
    package var all: [ModuleExport] {
        loadEveryModule?()
        return lock.withLock { byModule.values.flatMap { $0 } }.sorted { $0.name < $1.name }
    }

    /// The export named `<module>.<function>`, or a failure that says what exists instead.
    package func find(_ name: String) -> Result<ModuleExport, ExportCallFailure> {
        // The hot path (a call by a valid name) splits once and reads under the lock; the
        // sanitised text for messages is only made when the name finds nothing.
        if let dot = name.firstIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex {
            let module = name[..<dot], function = name[name.index(after: dot)...]
            let found = lock.withLock { byModule[String(module)]?.first { $0.function == function } }
            if let found { return .success(found) }
            // A module installed from its manifest registers its exports when it loads: load it
            // now (outside the lock: loading installs them) and look again.
            if lock.withLock({ byModule[String(module)] }) == nil, loadModule?(String(module)) == true {
                let loaded = lock.withLock { byModule[String(module)]?.first { $0.function == function } }
                if let loaded { return .success(loaded) }
            }
        }
        return .failure(missing(name))
    }

    /// Why `name` finds no export, saying what exists instead.
    private func missing(_ name: String) -> ExportCallFailure {
        let parts = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let shown = ModuleText.singleLine(name, limit: 140)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            return ExportCallFailure(.unknownExport, status: DEN_ERR_INVALID_ARGUMENT,
                                     "'\(shown)' is not an export name: write <module>.<function>, e.g. main.convert (den exports lists them)")
        }
        let exports = lock.withLock { byModule[parts[0]] }
        let message: String
        if let exports {
            message = "no export '\(shown)': module '\(parts[0])' exports \(exports.map(\.function).sorted().joined(separator: ", ")) (den exports lists them with their signatures)"
        } else {
            // Modules not loaded yet count by their manifests: with lazy loading, a call by a
            // wrong name must not make the right ones look absent.
            let loaded = lock.withLock { Array(byModule.keys) }
            let modules = Set(loaded + (declaredExporters?() ?? [])).sorted()
            message = "no export '\(shown)': no module '\(ModuleText.singleLine(parts[0], limit: 64))' exports anything" +
                (modules.isEmpty ? "; no installed module exports a function" : "; modules with exports: \(modules.joined(separator: ", "))") +
                " (den exports lists them; den plugins says whether a module failed to load)"
        }
        return ExportCallFailure(.unknownExport, status: DEN_ERR_NOT_FOUND, message)
    }
}

