import ArgumentParser
import DenHost
import DenKit
import DenSupport
import Foundation

/// `den exports`: every function the loaded modules export.
struct ExportsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exports",
        abstract: "List the functions modules export (name, signature, module, summary), for den call.",
        discussion: "Exits with status 0, also when no module exports anything; den plugins says why a module did not load.")

    @OptionGroup var host: HostOptions

    @Flag(help: "Print JSON: {\"exports\": [{\"name\", \"module\", \"signature\", \"summary\"}]}, as the exports.list service answers.")
    var json = false

    func run() throws {
        let runtime = try host.makeRuntime(oneShot: true)
        let exports = runtime.exports
        if json {
            print(String(decoding: try WireFormat.encode(ExportListAnswer(exports: exports.map(\.summaryDocument))), as: UTF8.self))
            return
        }
        guard !exports.isEmpty else {
            let active = runtime.registry.plugins.filter(\.isActive).count
            print("No loaded module exports a function (\(active) module\(active == 1 ? "" : "s") loaded).")
            return
        }
        for export in exports {
            // Everything a module supplies is printed through the one sanitiser.
            print(ModuleText.singleLine(export.declaration))
            let summary = ModuleText.singleLine(export.summary, limit: 200)
            print("    module \(export.moduleID)\(summary.isEmpty ? "" : " · \(summary)")")
        }
    }
}
