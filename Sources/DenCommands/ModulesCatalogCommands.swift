import ArgumentParser
import DenCatalog
import DenCommandLine
import DenKit
import DenTrust
import Foundation

/// `den modules sources|search|info`: the catalogs you read modules from (docs/CATALOG.md).
struct ModulesSourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "The catalogs den modules search and info read: add, list or remove one.",
        subcommands: [Add.self, List.self, Remove.self], defaultSubcommand: List.self)

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a catalog: an http(s) address or a folder. It is read now, and must be signed by a key you trust.",
            discussion: "den remembers the key that signed it and its index serial, and refuses from then on an index signed by another key or older than one it read (docs/CATALOG.md).")

        @Argument(help: ArgumentHelp("The catalog's address (https://…) or folder.", valueName: "url|dir"))
        var location: String

        func run() throws {
            try CatalogCommand.reporting { context in
                let location = try CatalogSources.normalise(location).get()
                guard !context.sources.sources.contains(where: { $0.location == location }) else {
                    return "\(location) is a source already."
                }
                let read = try context.reader.read(CatalogSources.Source(location: location))
                context.sources.sources.append(CatalogSources.Source(location: location))
                context.sources.remember(read, of: location)
                try context.save()
                let versions = read.index.modules.values.reduce(0) { $0 + $1.count }
                return "Added \(location): \(read.index.modules.count) module(s), \(versions) version(s), index serial \(read.index.serial), signed by \(read.publisher) (key \(read.keyID))."
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the catalogs, with the key and index serial den last read there.")

        func run() throws {
            try CatalogCommand.reporting { context in
                guard !context.sources.sources.isEmpty else { return "No catalog sources. Add one: den modules sources add <url|dir>" }
                return context.sources.sources.map { source in
                    "\(source.location)  key \(source.keyID ?? "-")  serial \(source.serial.map(String.init) ?? "-")"
                }.joined(separator: "\n")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a catalog (what den learnt of it goes too).")

        @Argument(help: ArgumentHelp("The catalog's address or folder, as den modules sources lists it.", valueName: "url|dir"))
        var location: String

        func run() throws {
            try CatalogCommand.reporting { context in
                let location = try CatalogSources.normalise(location).get()
                guard context.sources.sources.contains(where: { $0.location == location }) else {
                    throw CatalogReader.Failure("\(location) is not a source; den modules sources lists them")
                }
                context.sources.sources.removeAll { $0.location == location }
                try context.save()
                return "Removed \(location)."
            }
        }
    }
}

struct ModulesSearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find modules in your catalogs by words in their id or summary (none: list them all).",
        discussion: "Reads every source anew and checks it as den modules sources add does; a source that fails is named and the others are still searched.")

    @Argument(help: ArgumentHelp("Words that must each appear in a module's id or summary (any case).", valueName: "words"))
    var words: [String] = []

    func run() throws {
        try CatalogCommand.reporting { context in
            let words = words.map { $0.lowercased() }
            var lines: [String] = []
            for (source, read) in try context.readAll() {
                for (id, versions) in read.index.modules.sorted(by: { $0.key < $1.key }) {
                    guard let newest = versions.last else { continue }
                    let text = (id + " " + newest.manifest.summary).lowercased()
                    guard words.allSatisfy(text.contains) else { continue }
                    lines.append("\(id) \(newest.version)  \(newest.manifest.summary)  (\(read.publisher), \(source.location))")
                }
            }
            return lines.isEmpty ? "No module matches \(words.isEmpty ? "(the catalogs are empty)" : words.joined(separator: " "))." : lines.joined(separator: "\n")
        }
    }
}

struct ModulesInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a module's versions in your catalogs: publisher, what each requires and asks for.")

    @Argument(help: ArgumentHelp("The module id.", valueName: "id"))
    var id: String

    func run() throws {
        try CatalogCommand.reporting { context in
            var lines: [String] = []
            for (source, read) in try context.readAll() {
                guard let versions = read.index.modules[id], !versions.isEmpty else { continue }
                lines.append("\(id) in \(source.location), signed by \(read.publisher) (key \(read.keyID)):")
                for entry in versions.reversed() {
                    lines.append("  \(entry.version)  \(entry.manifest.summary)  (\(ByteCountFormatter.string(fromByteCount: Int64(entry.size), countStyle: .file)))")
                    let requires = entry.manifest.requires.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                    lines.append("    requires: \(requires.isEmpty ? "nothing" : requires.joined(separator: ", "))")
                    let asks = entry.manifest.permissions.lines
                    lines.append("    asks to: \(asks.isEmpty ? "nothing beyond its own data" : asks.joined(separator: "; "))")
                }
            }
            guard !lines.isEmpty else { throw CatalogReader.Failure("no catalog has a module '\(id)'; den modules search lists what they have") }
            return lines.joined(separator: "\n")
        }
    }
}

/// What the catalog commands share: the sources file, a reader under the trust list, and the
/// command-line form of a failure (exit 1, the reason on standard error).
final class CatalogCommand {
    let file: URL
    var sources: CatalogSources
    let reader: CatalogReader

    init() throws(CatalogReader.Failure) {
        let environment = ProcessInfo.processInfo.environment
        file = CatalogSources.file(configDirectory: TrustStore.configDirectory(environment: environment))
        sources = try CatalogSources.load(file)
        var reader = CatalogReader(trust: TrustStore.load(TrustPolicySetting.trustFiles(environment: environment)))
        // A shorter limit for a slow network, or a longer one for a slow mirror.
        if let text = environment["DEN_CATALOG_TIMEOUT"], !text.isEmpty {
            guard let seconds = Double(text), seconds >= 0.1, seconds <= 3600 else {
                throw CatalogReader.Failure("DEN_CATALOG_TIMEOUT=\(text.prefix(40)) is not 0.1 to 3600 seconds")
            }
            reader.timeoutMilliseconds = Int(seconds * 1000)
        }
        self.reader = reader
    }

    func save() throws(CatalogReader.Failure) { try sources.save(file) }

    /// Every source's believed index; a source that fails is named on standard error and left out.
    /// What each read learnt is saved. Throws when there is no source, or none could be read.
    func readAll() throws -> [(CatalogSources.Source, CatalogReader.Read)] {
        guard !sources.sources.isEmpty else { throw CatalogReader.Failure("no catalog sources; add one with den modules sources add <url|dir>") }
        var reads: [(CatalogSources.Source, CatalogReader.Read)] = []
        var failures: [String] = []
        for source in sources.sources {
            do {
                let read = try reader.read(source)
                sources.remember(read, of: source.location)
                reads.append((source, read))
            } catch {
                failures.append("\(error)")
                FileHandle.standardError.write(Data("Warning: \(error)\n".utf8))
            }
        }
        try save()
        guard !reads.isEmpty else { throw CatalogReader.Failure("no catalog could be read (\(failures.count) failed, each named above)") }
        return reads
    }

    static func reporting(_ step: (CatalogCommand) throws -> String) throws {
        do {
            print(try step(try CatalogCommand()))
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
    }
}

struct ModulesOutdatedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outdated",
        abstract: "List the modules den runs that your catalogs have newer versions of.")

    @OptionGroup var options: InstallOptions

    func run() throws {
        try options.run { install in
            let active = try install.installer.activeModules()
            let context = try CatalogCommand()
            var newest: [String: (version: SemanticVersion, text: String, source: String)] = [:]
            for (source, read) in try context.readAll() {
                for (id, versions) in read.index.modules {
                    for entry in versions {
                        guard let version = SemanticVersion(entry.version) else { continue }
                        if newest[id].map({ version > $0.version }) ?? true { newest[id] = (version, entry.version, source.location) }
                    }
                }
            }
            let lines = active.sorted { $0.id < $1.id }.compactMap { module -> String? in
                guard let have = SemanticVersion(module.version), let offered = newest[module.id], offered.version > have else { return nil }
                let pin = context.sources.pins[module.id].map { "; pinned at \($0)" } ?? ""
                return "\(module.id) \(module.version) → \(offered.text) (\(offered.source)\(pin))"
            }
            return lines.isEmpty ? "Every module den runs is at the newest version your catalogs have." : lines.joined(separator: "\n")
        }
    }
}

struct ModulesUpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Move a module (none: every module your catalogs have) to the newest version its requirements and pins allow.",
        discussion: "Resolved, fetched, checked and installed as den modules install <id> does (docs/CATALOG.md).")

    @Argument(help: ArgumentHelp("The module id; leave it out to update every module your catalogs list.", valueName: "id"))
    var id: String?

    @OptionGroup var options: InstallOptions

    func run() throws {
        try options.run { install in
            let active = try install.installer.activeModules()
            if let id {
                guard active.contains(where: { $0.id == id }) else {
                    throw ModuleInstaller.Failure(description: "den runs no module '\(id)'; install it first (den modules install \(id))")
                }
                return try install.catalog(CatalogInstall(id: id, range: .any, text: id, update: .only([id])))
            }
            let context: CatalogCommand
            do { context = try CatalogCommand() } catch { throw ModuleInstaller.Failure(description: "\(error)") }
            var listed = Set<String>()
            do { for (_, read) in try context.readAll() { listed.formUnion(read.index.modules.keys) } } catch {
                throw ModuleInstaller.Failure(description: "\(error)")
            }
            let ids = active.map(\.id).filter(listed.contains)
            guard !ids.isEmpty else { return "No module den runs is in your catalogs; nothing to update." }
            var request = CatalogInstall(id: "", range: .any, text: "", update: .all)
            request.others = Dictionary(uniqueKeysWithValues: ids.map { ($0, VersionRequirement.any) })
            return try install.catalog(request)
        }
    }
}

struct ModulesPinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Hold a module at one version: den modules install and update never move it. No argument lists the pins.")

    @Argument(help: ArgumentHelp("id@version, e.g. main@1.2.0.", valueName: "id@version"))
    var pin: String?

    @Option(help: ArgumentHelp("Take the pin off a module.", valueName: "id"))
    var remove: String?

    func run() throws {
        try CatalogCommand.reporting { context in
            if let remove {
                guard context.sources.pins.removeValue(forKey: remove) != nil else { throw CatalogReader.Failure("\(remove) is not pinned") }
                try context.save()
                return "\(remove) is no longer pinned."
            }
            guard let pin else {
                guard !context.sources.pins.isEmpty else { return "No module is pinned." }
                return context.sources.pins.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "\n")
            }
            let parts = pin.split(separator: "@", maxSplits: 1).map(String.init)
            guard parts.count == 2, let request = try CatalogInstall.request(parts[0]), request.id == parts[0], SemanticVersion(parts[1]) != nil else {
                throw CatalogReader.Failure("'\(pin)' is not id@version, e.g. main@1.2.0")
            }
            context.sources.pins[parts[0]] = parts[1]
            try context.save()
            return "\(parts[0]) is pinned at \(parts[1])."
        }
    }
}

struct ModulesWhyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "why",
        abstract: "Say why a module is there: which modules den runs require it, chain by chain.")

    @Argument(help: ArgumentHelp("The module id.", valueName: "id"))
    var id: String

    @OptionGroup var options: InstallOptions

    func run() throws {
        try options.run { install in
            var installed: [String: ModuleRelease] = [:]
            for module in try install.installer.activeRequirements() {
                // A requirement den cannot read is left out here; install and publish refuse one.
                let requires = module.requires.filter { (try? VersionRequirement(parsing: $0.value)) != nil }
                guard let release = try? ModuleRelease(id: module.id, version: module.version, requires: requires) else { continue }
                installed[module.id] = release
            }
            return Why(id: id, installed: installed, requestedByUser: []).lines.joined(separator: "\n")
                .replacingOccurrences(of: ", and it was not installed by name", with: "; it is there by itself")
        }
    }
}
