import ArgumentParser
import DenCommandLine
import DenHost
import DenHotSwap
import DenIsolation
import DenKit
import DenSupport
import Foundation

struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the plugin files found, the modules they provide, and why any failed.",
        discussion: """
        Loads every module (as --eager does), so that every load error shows. Exits with status 1 when no module is active \
        (none found, or every plugin failed) or a named folder cannot be read. --inspect <file> prints one module file's \
        ABI version, toolchain, manifest and signature (publisher, key, state, and what the trust policy does with it) \
        without loading it (status 1 when this den could not load it).
        """)

    @OptionGroup var host: HostOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Print what a module file says about itself (ABI version, toolchain, manifest, signature) without loading it.",
                               valueName: "file"))
    var inspect: String?

    func run() throws {
        if let inspect { return try PluginInspection.run(inspect, json: json, trust: host.settings.moduleTrust()) }
        let runtime = try host.makeRuntime(eager: true)
        let plugins = runtime.registry.plugins
        // Nothing usable is a failure a script must notice, like an unreadable folder.
        let failing = !runtime.folderProblems.isEmpty || !plugins.contains(where: \.isActive)
        let running = RunningDenStatus.others(cache: runtime.configuration.cacheDirectory)
        if json {
            let list = PluginListResponse(plugins: plugins.map(\.summaryDocument))
            // Dens running with --watch are added under "running" (docs/HOT_SWAP.md); the rest is plugins.list's form.
            print(String(decoding: running.isEmpty ? try WireFormat.encode(list) : try WireFormat.encode(PluginsWithRunning(plugins: list.plugins, running: running)), as: UTF8.self))
            if failing { throw ExitCode(ExitStatus.failure) }
            return
        }
        guard !plugins.isEmpty else {
            let folders = runtime.searchedFolders.map(\.path).joined(separator: ", ")
            print(folders.isEmpty ? "No plugins found: no folder was searched (--no-default-modules without --plugin-dir)."
                                  : "No plugins found in \(folders).")
            print("Build them with Scripts/build.sh, install den with Scripts/install.sh, or name a folder with --plugin-dir.")
            for problem in runtime.folderProblems { print("FOLDER  \(ModuleText.singleLine("\(problem)"))") }
            throw ExitCode(ExitStatus.failure)
        }
        for plugin in plugins {
            let status = plugin.isActive ? "active" : "FAILED"
            // Everything a module or a file name supplies is printed through the one sanitiser.
            let name = plugin.id.map { id in plugin.version.map { "\(id) \($0)" } ?? id } ?? "(unknown module)"
            print("\(status.padding(toLength: 7, withPad: " ", startingAt: 0)) \(ModuleText.singleLine(name))  \(ModuleText.singleLine(plugin.file.path))")
            if let summary = plugin.summary, !summary.isEmpty { print("        \(ModuleText.singleLine(summary, limit: 200))") }
            if !plugin.routes.isEmpty {
                let routes = plugin.routes.map { plugin.loginRoutes.contains($0) ? "\($0) (requires login)" : $0 }
                print("        routes: \(ModuleText.singleLine(routes.joined(separator: ", ")))")
            }
            if let signature = plugin.signature { print("        \(ModuleText.singleLine(signature.text))") }
            if !plugin.requires.isEmpty {
                let requires = plugin.requires.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                print("        requires: \(ModuleText.singleLine(requires.joined(separator: ", "), limit: 600))")
            }
            if let permissions = plugin.permissions {
                print("        permissions: \(ModuleText.singleLine(permissions.isEmpty ? "none beyond its own data" : permissions.lines.joined(separator: "; "), limit: 600))")
            }
            if plugin.isActive {
                print("        generation \(plugin.generation), " + (plugin.summaryDocument.loadedAt.map { "loaded \($0)" } ?? "not loaded yet"))
                if let hosting = plugin.hosting { print("        runs \(hosting)") }
            }
            if let error = plugin.error {
                print("        error: \(ModuleText.singleLine(error.reason))")
                print("        fix: \(ModuleText.singleLine(error.fix))")
            }
        }
        let failed = plugins.filter { !$0.isActive }.count
        print("\n\(plugins.count - failed) active, \(failed) failed")
        for entry in QuarantineBook(directory: runtime.configuration.dataDirectory).entries {
            print("QUARANTINED \(ModuleText.singleLine(entry.module)) \(entry.hash.prefix(12))  \(ModuleText.singleLine(entry.file))")
            print("        since \(entry.at): the module \(ModuleText.singleLine(entry.reason, limit: 400))")
        }
        for status in running { print(RunningDenText.lines(status)) }
        for problem in runtime.folderProblems { print("FOLDER  \(ModuleText.singleLine("\(problem)"))") }
        if failed == plugins.count { print("No module works: fix the failures above (each says how), then run den plugins again.") }
        if failing { throw ExitCode(ExitStatus.failure) }
    }
}
