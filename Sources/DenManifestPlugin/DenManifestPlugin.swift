import Foundation
import PackagePlugin

/// Generates a module target's Swift side from `Manifest/module.json` in its folder at every
/// build (DenManifestCodegen says what is generated). module.json stays the one source: the same
/// file the module's C manifest target embeds as `den_manifest`.
@main struct DenManifestPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else {
            throw Failure(description: "DenManifestPlugin works on Swift targets; '\(target.name)' is not one")
        }
        let input = target.directoryURL.appending(path: "Manifest").appending(path: "module.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "ModuleManifest.swift")
        // `JogsModule` → `Jogs`: the generated code names JogsBuilder, JogsExports and jogsModule.
        let prefix = target.name.hasSuffix("Module") && target.name != "Module" ? String(target.name.dropLast(6)) : target.name
        // The target's own Swift goes in too: the tool refuses a builder or export function that
        // module.json does not declare (Swift cannot list static functions at run time).
        let sources = target.sourceFiles(withSuffix: "swift").map(\.url)
        return [.buildCommand(displayName: "Generating \(target.name)'s Swift from Manifest/module.json",
                              executable: try context.tool(named: "den-manifest-swift").url,
                              arguments: [input.path, output.path, prefix] + sources.map(\.path),
                              inputFiles: [input] + sources, outputFiles: [output])]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
