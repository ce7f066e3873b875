import ArgumentParser
import DenHost
import DenLibraryClients
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
        the folder must not exist or be empty. The package depends on Den's SDK (DenKit) alone: by version from \
        --den-url, or by path from --den-package for working on Den itself.
        """)

    @Argument(help: ArgumentHelp("The module's name: letters and digits starting with a capital letter (Weather, TrailMap). Its id is the name in lower case with dashes (trail-map).", valueName: "Name"))
    var name: String

    @Option(help: ArgumentHelp("Where to write the package (default: ./<Name>).", valueName: "dir"))
    var path: String?

    @Option(name: .customLong("route"), help: ArgumentHelp("A route pattern the module serves (repeatable; default: its id), e.g. weather/<string:city>.", valueName: "pattern"))
    var routes: [String] = []

    @Option(name: .customLong("den-url"), help: ArgumentHelp(
        "Den's git repository: the module depends on it by version (from: this den's version), as any third party does. Also DEN_PACKAGE_URL.",
        valueName: "url"))
    var denURL: String?

    @Option(name: .customLong("den-package"), help: ArgumentHelp(
        "A Den checkout (the folder of Den's Package.swift) the module depends on by path, for working on Den itself. Also DEN_PACKAGE_PATH. Default when no --den-url is given: the checkout this den was built in, when it runs from its build folder.",
        valueName: "dir"))
    var denPackage: String?

    func run() throws {
        do {
            try ModuleGenerator.check(name: name)
        } catch {
            throw ValidationError(error.description)
        }
        let dependency = try resolvedDependency()
        let folder = URL(fileURLWithPath: path ?? name, isDirectory: true).standardizedFileURL
        let generator = ModuleGenerator(name: name, routes: routes, den: dependency)
        let written: [String]
        do {
            written = try generator.write(into: folder)
        } catch let problem as ModuleGenerator.Problem {
            throw ValidationError(problem.description)
        }
        print("Wrote module '\(generator.id)' (\(written.count) files) to \(folder.path)")
        if let url = dependency.url {
            print("It depends on Den \(VersionText.version) or a later 1.x from \(url)")
        } else if let path = dependency.path {
            print("It depends on the Den checkout at \(path) by path; for a module others build, generate it with --den-url <Den's repository>")
        }
        print("Next: cd \(folder.path) && swift build && swift test")
        print("Then: den render \(ModuleGenerator.sample(for: (try? generator.checkedRoutes())?.first ?? generator.id)) --plugin-dir \(folder.path)/.build/debug")
    }

    /// --den-url, --den-package, DEN_PACKAGE_URL, DEN_PACKAGE_PATH, else the checkout whose build folder holds this den.
    private func resolvedDependency() throws -> DenDependency {
        let environment = ProcessInfo.processInfo.environment
        if denURL != nil, denPackage != nil {
            throw ValidationError("give --den-url (Den's repository, by version) or --den-package (a Den checkout, by path), not both")
        }
        if let url = denURL ?? (denPackage == nil ? environment["DEN_PACKAGE_URL"].flatMap({ $0.isEmpty ? nil : $0 }) : nil) {
            guard !url.contains("\""), !url.contains("\\"), !url.contains("\n") else {
                throw ValidationError("--den-url '\(url)' contains a quote, a backslash or a line break, which Package.swift cannot hold")
            }
            return .byVersion(url)
        }
        return .byPath(try resolvedDenPackage())
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
        throw ValidationError("this den is installed, so it does not know where Den comes from: give Den's repository with --den-url URL (the module depends on it by version) or a Den checkout with --den-package DIR (by path)")
    }

    private static func isDenPackage(_ folder: URL) -> Bool {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8) else { return false }
        return text.contains("name: \"Den\"") && text.contains("\"DenKit\"")
    }
}
