import ArgumentParser
import DenHost
import DenHotSwap
import DenWeb
import Foundation

/// `den dev`: `den serve --watch` plus rebuilding a module when its sources change, so the loop
/// is "save a file → see it in the browser" (docs/HOT_SWAP.md). In the Den checkout it watches
/// the bundled modules (`Plugins/<Name>/`); in a package made by `den new-module` it watches
/// `Sources/` and serves that package's own `.build/debug` beside the usual modules.
struct DevCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev",
        abstract: "Develop modules: serve with hot swap, and rebuild a module when one of its sources is saved.",
        discussion: """
        Run it in the Den checkout or in a package made by `den new-module` (or name either with \
        --package-path). In the checkout a saved file under Plugins/<Name>/ runs `swift build \
        --product <Name>Module`; in a module package a saved file under Sources/ builds its module, \
        and den also loads that package's .build/debug. The new library is swapped in while den \
        serves, each open page of that module reloads with its state kept. A build or swap error is \
        printed here and shown on every open page; the old version keeps serving. docs/HOT_SWAP.md.
        """)

    @OptionGroup var serve: ServeOptions

    @Option(name: .customLong("package-path"), help: ArgumentHelp(
        "The Den checkout, or the module package, whose sources to watch (default: the current folder).", valueName: "dir"))
    var packagePath: String?

    var packageRoot: URL {
        URL(fileURLWithPath: packagePath ?? FileManager.default.currentDirectoryPath, isDirectory: true).standardizedFileURL
    }

    func validate() throws {
        guard ModuleRebuilder.Layout.find(packageRoot) != nil else {
            throw ValidationError("den dev rebuilds modules from their sources, but \(packageRoot.path) is neither the Den checkout (Package.swift and Plugins/) nor a module package made by den new-module (Package.swift and Sources/<Name>ModuleEntry/): run it in one of them or pass --package-path (to only swap plugin files, use den serve --watch)")
        }
    }

    func run() throws {
        let events = DevEvents()
        // Build for the configuration den itself was built in, so the new library lands in the folder den watches.
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let binFolder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let configuration = binFolder.lastPathComponent == "release" ? "release" : "debug"
        guard let layout = ModuleRebuilder.Layout.find(packageRoot) else { return }
        var serve = self.serve
        let rebuilder: ModuleRebuilder
        switch layout {
        case .checkout:
            rebuilder = ModuleRebuilder(packageRoot: packageRoot, layout: layout, configuration: configuration, events: events)
            // swift build puts the libraries in <checkout>/.build/<configuration>; only a den from that
            // folder loads its bundled modules from there (an installed den loads <prefix>/lib/den/modules).
            let buildFolder = packageRoot.appendingPathComponent(".build").appendingPathComponent(configuration).resolvingSymlinksInPath()
            if binFolder.resolvingSymlinksInPath().standardizedFileURL.path != buildFolder.standardizedFileURL.path {
                print("Warning: this den runs from \(binFolder.path), but rebuilt modules land in \(buildFolder.path), which it does not load from; run \(buildFolder.path)/den dev to see them swapped in")
            }
        case .modulePackage(let name):
            // A module package is built in debug, as its README says; den loads and watches its output.
            rebuilder = ModuleRebuilder(packageRoot: packageRoot, layout: layout, configuration: "debug", events: events)
            let output = packageRoot.appendingPathComponent(".build/debug", isDirectory: true)
            if !FileManager.default.fileExists(atPath: output.appendingPathComponent("lib\(name)Module.so").path) {
                print("den dev: building \(name)Module first")
                fflush(nil)
                rebuilder.buildNow(name)
            }
            try? FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            serve.options.pluginDirectories.append(output.path)
        }
        let mode = FileChangeWatcher.Mode(rawValue: serve.watching.watchMode) ?? .automatic
        // It rebuilds the modules it runs, unsigned: allow unless something names a policy.
        try serve.serve(events: events, defaultTrustPolicy: .allow, whenListening: { rebuilder.start(mode: mode) })
        rebuilder.stop()
    }
}
