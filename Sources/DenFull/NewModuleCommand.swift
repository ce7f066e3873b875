import ArgumentParser
import DenHost
import Foundation

/// `den new-module <Name>`: a complete module package (VIPER layers behind protocols, a route, a
/// setting, a manifest, tests with mocks, a README) that builds and passes its tests as generated.
struct NewModuleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-module",
        abstract: "Generate a new module: a Swift package depending on DenKit alone, with tests and mocks.",
        discussion: """
        Writes ./<Name> (or --path DIR): Package.swift, the VIPER layers (Builder, View, Presenter, Interactor, \
        Router, Entity, view object) each behind its protocol, a setting, the manifest (module.json), tests for \
        the presenter, interactor and router with a mock for every protocol, and a README on building, testing, \
        installing and hot-swapping it. Then: cd <Name> && swift build && swift test. Nothing is written over: \
        the folder must not exist or be empty.
        """)

    @Argument(help: ArgumentHelp("The module's name: letters and digits starting with a capital letter (Weather, TrailMap). Its id is the name in lower case with dashes (trail-map).", valueName: "Name"))
    var name: String

    @Option(help: ArgumentHelp("Where to write the package (default: ./<Name>).", valueName: "dir"))
    var path: String?

    @Option(name: .customLong("route"), help: ArgumentHelp("A route pattern the module serves (repeatable; default: its id), e.g. weather/<string:city>.", valueName: "pattern"))
    var routes: [String] = []

    @Option(name: .customLong("den-package"), help: ArgumentHelp(
        "The Den package (the folder holding Den's Package.swift) the module gets DenKit from. Default: the package this den was built in, when it runs from its build folder; also DEN_PACKAGE_PATH.",
        valueName: "dir"))
    var denPackage: String?

    func run() throws {
        do {
            try ModuleGenerator.check(name: name)
        } catch {
            throw ValidationError(error.description)
        }
        let package = try resolvedDenPackage()
        let folder = URL(fileURLWithPath: path ?? name, isDirectory: true).standardizedFileURL
        let generator = ModuleGenerator(name: name, routes: routes, denPackage: package)
        let written: [String]
        do {
            written = try generator.write(into: folder)
        } catch let problem as ModuleGenerator.Problem {
            throw ValidationError(problem.description)
        }
        print("Wrote module '\(generator.id)' (\(written.count) files) to \(folder.path)")
        print("Next: cd \(folder.path) && swift build && swift test")
        print("Then: den render \(ModuleGenerator.sample(for: (try? generator.checkedRoutes())?.first ?? generator.id)) --plugin-dir \(folder.path)/.build/debug")
    }

    /// The Den package: --den-package, DEN_PACKAGE_PATH, else the package whose build folder holds this den.
    private func resolvedDenPackage() throws -> URL {
        let given = denPackage ?? ProcessInfo.processInfo.environment["DEN_PACKAGE_PATH"].flatMap { $0.isEmpty ? nil : $0 }
        if let given {
            let url = URL(fileURLWithPath: given, isDirectory: true).standardizedFileURL
            guard Self.isDenPackage(url) else {
                throw ValidationError("\(url.path) is not the Den package (no Package.swift with DenKit there); give the folder of Den's Package.swift with --den-package")
            }
            return url
        }
        // <package>/.build/<config>/den, or <package>/.build/<triple>/<config>/den.
        var folder = InstallLayout.current?.executableDirectory
        while let current = folder, current.path != "/" {
            if current.lastPathComponent == ".build", Self.isDenPackage(current.deletingLastPathComponent()) {
                return current.deletingLastPathComponent()
            }
            folder = current.deletingLastPathComponent()
        }
        throw ValidationError("this den is installed, so it does not know where the Den package is: give it with --den-package DIR (the folder of Den's Package.swift) or DEN_PACKAGE_PATH")
    }

    private static func isDenPackage(_ folder: URL) -> Bool {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8) else { return false }
        return text.contains("name: \"Den\"") && text.contains("\"DenKit\"")
    }
}
