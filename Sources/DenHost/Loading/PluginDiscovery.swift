import Foundation

/// Finds plugin files. The rule (README "Plugin folders"):
/// - folders named with `--plugin-dir` (repeatable) or `DEN_PLUGIN_PATH` (colon-separated), in that
///   order: every `*.so` file in them is a plugin, so a broken file there is reported, not ignored;
/// - when none is named, the bundled folder (the folder of the `den` executable, where the
///   package builds its modules): there only `lib<Name>Module.so` files count, because the
///   build folder also holds dependencies and test fixtures.
/// Files are taken in folder order, then by name.
public struct PluginDiscovery: Sendable {
    public var explicitDirectories: [URL]
    public var bundledDirectory: URL?

    public init(explicitDirectories: [URL], bundledDirectory: URL?) {
        self.explicitDirectories = explicitDirectories
        self.bundledDirectory = bundledDirectory
    }

    /// `--plugin-dir` folders first, then `DEN_PLUGIN_PATH`.
    public static func explicitDirectories(flags: [String], environment: [String: String]) -> [URL] {
        let fromEnvironment = (environment["DEN_PLUGIN_PATH"] ?? "").split(separator: ":").map(String.init)
        return (flags + fromEnvironment).filter { !$0.isEmpty }.map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// The folder that holds the running executable.
    public static var executableDirectory: URL? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: path).deletingLastPathComponent()
    }

    public struct Candidate: Sendable, Equatable {
        public var file: URL
        /// The module id the file name suggests (`libAboutModule.so` → `about`), used to skip
        /// unselected modules without running their code; nil when the name does not follow the rule.
        public var idHint: String?
    }

    /// The plugin files, and the named folders that could not be read: one bad folder (a stale
    /// `DEN_PLUGIN_PATH` entry) costs only its own plugins.
    public func candidates() -> (found: [Candidate], problems: [DiscoveryError]) {
        if !explicitDirectories.isEmpty {
            var found: [Candidate] = []
            var problems: [DiscoveryError] = []
            for directory in explicitDirectories {
                do {
                    found += try files(in: directory, required: true).filter { $0.hasSuffix(".so") }.map { candidate(directory, $0) }
                } catch {
                    problems.append(error)
                }
            }
            return (found, problems)
        }
        guard let bundledDirectory else { return ([], []) }
        do {
            let found = try files(in: bundledDirectory, required: false)
                .filter { PluginDiscovery.moduleName(fromFile: $0) != nil }
                .map { candidate(bundledDirectory, $0) }
            return (found, [])
        } catch {
            return ([], [error])
        }
    }

    /// Whether a file-name hint can belong to one of the selected module ids. Ids and names are
    /// compared without case, `-` and `_`: `libCounterCModule.so` may hold `counter-c`.
    public static func hint(_ hint: String, mayMatch selected: Set<String>) -> Bool {
        let wanted = Set(selected.map(normalized))
        return wanted.contains(normalized(hint))
    }

    static func normalized(_ id: String) -> String {
        id.lowercased().filter { $0 != "-" && $0 != "_" }
    }

    /// `libAboutModule.so` → `About`; nil for any other name.
    public static func moduleName(fromFile name: String) -> String? {
        guard name.hasPrefix("lib"), name.hasSuffix("Module.so") else { return nil }
        let core = name.dropFirst(3).dropLast("Module.so".count)
        return core.isEmpty ? nil : String(core)
    }

    private func candidate(_ directory: URL, _ name: String) -> Candidate {
        Candidate(file: directory.appendingPathComponent(name),
                  idHint: PluginDiscovery.moduleName(fromFile: name).map { $0.lowercased() })
    }

    private func files(in directory: URL, required: Bool) throws(DiscoveryError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            if required { throw DiscoveryError(directory: directory.path, reason: "no such folder (or a parent folder cannot be searched)") }
            return []
        }
        guard isDirectory.boolValue else {
            if required { throw DiscoveryError(directory: directory.path, reason: "it is a file, not a folder") }
            return []
        }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        } catch {
            throw DiscoveryError(directory: directory.path, reason: error.localizedDescription)
        }
    }
}

public struct DiscoveryError: Error, Sendable, CustomStringConvertible {
    public var directory: String
    public var reason: String

    public var description: String {
        "plugin folder \(directory): \(reason) — check the --plugin-dir / DEN_PLUGIN_PATH value"
    }
}
