import ArgumentParser
import DenHost
import DenWeb
import Foundation

/// `den dev`: `den serve --watch` plus rebuilding a bundled module when its sources change, so
/// the loop is "save a file → see it in the browser" (docs/HOT_SWAP.md).
struct DevCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev",
        abstract: "Develop modules: serve with hot swap, and rebuild a bundled module when a file under Plugins/<Name>/ is saved.",
        discussion: """
        Run it in the Den checkout (or name it with --package-path). A saved file under Plugins/<Name>/ \
        runs `swift build --product <Name>Module`; the new library is swapped in while den serves, \
        each open page of that module reloads with its state kept. A build or swap error is printed \
        here and shown on every open page; the old version keeps serving. docs/HOT_SWAP.md.
        """)

    @OptionGroup var serve: ServeCommand

    @Option(name: .customLong("package-path"), help: ArgumentHelp(
        "The Den checkout whose Plugins/ sources to watch (default: the current folder).", valueName: "dir"))
    var packagePath: String?

    var packageRoot: URL {
        URL(fileURLWithPath: packagePath ?? FileManager.default.currentDirectoryPath, isDirectory: true).standardizedFileURL
    }

    func validate() throws {
        let plugins = packageRoot.appendingPathComponent("Plugins").path
        let manifest = packageRoot.appendingPathComponent("Package.swift").path
        guard FileManager.default.fileExists(atPath: manifest), FileManager.default.fileExists(atPath: plugins) else {
            throw ValidationError("den dev rebuilds the bundled modules' sources, but \(packageRoot.path) has no Package.swift and Plugins/ folder: run it in the Den checkout or pass --package-path (to only swap plugin files, use den serve --watch)")
        }
    }

    func run() throws {
        let events = DevEvents()
        // Build for the configuration den itself was built in, so the new library lands in the folder den watches.
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let binFolder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let configuration = binFolder.lastPathComponent == "release" ? "release" : "debug"
        let rebuilder = ModuleRebuilder(packageRoot: packageRoot, configuration: configuration, events: events)
        // swift build puts the libraries in <checkout>/.build/<configuration>; only a den from that
        // folder loads its bundled modules from there (an installed den loads <prefix>/lib/den/modules).
        let buildFolder = packageRoot.appendingPathComponent(".build").appendingPathComponent(configuration).resolvingSymlinksInPath()
        if binFolder.resolvingSymlinksInPath().standardizedFileURL.path != buildFolder.standardizedFileURL.path {
            print("Warning: this den runs from \(binFolder.path), but rebuilt modules land in \(buildFolder.path), which it does not load from; run \(buildFolder.path)/den dev to see them swapped in")
        }
        let mode = FileChangeWatcher.Mode(rawValue: serve.watching.watchMode) ?? .automatic
        // It rebuilds the modules it runs, unsigned: allow unless something names a policy.
        try serve.serve(events: events, defaultTrustPolicy: .allow, whenListening: { rebuilder.start(mode: mode) })
        rebuilder.stop()
    }
}
