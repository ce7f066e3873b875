import DenHost
import DenModuleFiles

/// `--plugins nosuch` used to say "No plugins found" and exit 0. An id that no plugin file
/// provides is a usage mistake: say which ids exist and exit 64. An id whose plugin was found
/// but failed to load was already reported with its cause; it gets a warning, and the command
/// goes on so `den plugins` can still show the failure.
package struct SelectedModulesCheck {
    let runtime: DenRuntime

    package init(runtime: DenRuntime) {
        self.runtime = runtime
    }

    /// The usage error for ids no plugin provides (after "Error: "), nil when there is none.
    package func problem() -> String? {
        selectionProblem() ?? isolationProblem()
    }

    /// `--isolate nosuch` asks for isolation and would get none: a name that is neither a module's
    /// id nor a plugin file's name is a usage mistake too, so den never runs without the
    /// isolation asked for. (A module without a manifest told its id from a worker.)
    func isolationProblem() -> String? {
        let names = runtime.configuration.hosting.isolated
        guard !names.isEmpty else { return nil }
        let records = runtime.registry.plugins
        let known = Set(runtime.foundModules).union(records.compactMap(\.id)).union(records.map { $0.file.lastPathComponent.lowercased() })
        let unknown = names.subtracting(known).sorted()
        guard !unknown.isEmpty else { return nil }
        let found = runtime.foundModules
        return "--isolate names \(unknown.map { "'\($0)'" }.joined(separator: ", ")), but no module has \(unknown.count == 1 ? "that id" : "those ids") "
            + "or file name\(found.isEmpty ? "" : " (modules found: \(found.joined(separator: ", ")))"); den does not start without the isolation asked for. "
            + "Name modules by id as `den plugins` lists them, or by file name."
    }

    private func selectionProblem() -> String? {
        let missing = runtime.missingSelectedModules
        guard !missing.isEmpty else { return nil }
        let failedHints = runtime.registry.plugins.filter { !$0.isActive }.compactMap { record in
            record.id ?? PluginDiscovery.moduleName(fromFile: record.file.lastPathComponent)?.lowercased()
        }
        let found = runtime.foundModules
        let unknown = missing.filter { id in
            !PluginDiscovery.hint(id, mayMatch: Set(found)) && !PluginDiscovery.hint(id, mayMatch: Set(failedHints))
        }
        for id in missing where !unknown.contains(id) {
            runtime.logger.warning("--plugins names '\(id)', whose plugin failed to load (the cause is above; see `den plugins`)")
        }
        guard !unknown.isEmpty else { return nil }
        let names = unknown.map { "'\($0)'" }.joined(separator: ", ")
        let available = found.isEmpty
            ? "No module was found at all: build them (Scripts/build.sh), install den (Scripts/install.sh) or name a folder with --plugin-dir."
            : "Modules found: \(found.joined(separator: ", ")). Use one of these (see `den plugins`), or add a folder with --plugin-dir."
        return "--plugins names \(names), but no plugin provides \(unknown.count == 1 ? "it" : "them"). \(available)"
    }
}
