import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Finds plugin files. Folders add up, in this order (README "Plugin folders"):
/// 1. the bundled folder (`InstallLayout.bundledModulesDirectory`): only `lib<Name>Module.so`
///    files count, because in a build folder it also holds dependencies, the HTTP transport and
///    test fixtures;
/// 2. the per-user folder (`~/.local/share/den/modules`): every `*.so` file is a plugin; a
///    missing folder is fine;
/// 3. folders named with `--plugin-dir` (repeatable), then `DEN_PLUGIN_PATH` (colon-separated):
///    every `*.so` file is a plugin, and a folder that cannot be read is reported.
/// `--no-default-modules` leaves out 1 and 2. Files are taken in folder order, then by name.
package struct PluginDiscovery: Sendable {
    package var explicitDirectories: [URL]
    package var bundledDirectory: URL?
    package var userDirectory: URL?

    package init(explicitDirectories: [URL], bundledDirectory: URL?, userDirectory: URL? = nil) {
        self.explicitDirectories = explicitDirectories
        self.bundledDirectory = bundledDirectory
        self.userDirectory = userDirectory
    }

    /// `--plugin-dir` folders first, then `DEN_PLUGIN_PATH`.
    package static func explicitDirectories(flags: [String], environment: [String: String]) -> [URL] {
        let fromEnvironment = (environment["DEN_PLUGIN_PATH"] ?? "").split(separator: ":").map(String.init)
        return (flags + fromEnvironment).filter { !$0.isEmpty }.map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// How a folder's files are read.
    package enum FolderKind: String, Sendable {
        /// Only `lib<Name>Module.so`; a missing folder is fine.
        case bundled
        /// Every `*.so`; a missing folder is fine (most users never make one).
        case user
        /// Every `*.so`; a missing folder is an error (a typo in `--plugin-dir`).
        case named
    }

    /// The folders searched, in order, with how each is read.
    package var folders: [(url: URL, kind: FolderKind)] {
        var folders: [(URL, FolderKind)] = []
        if let bundledDirectory { folders.append((bundledDirectory, .bundled)) }
        if let userDirectory { folders.append((userDirectory, .user)) }
        return folders + explicitDirectories.map { ($0, .named) }
    }

    package struct Candidate: Sendable, Equatable {
        /// The file, made when asked for: a URL per module costs a start ≈ 5,000 instructions, and
        /// a module installed from its manifest needs only its path and name.
        /// (`isDirectory: false` spares a `stat`: URL would look whether it is a folder.)
        package var file: URL { URL(fileURLWithPath: path, isDirectory: false) }
        /// The file's path and last component, kept from discovery (docs/PERFORMANCE.md).
        package var path: String
        package var fileName: String
        /// The module id the file name suggests (`libAboutModule.so` → `about`), used to skip
        /// unselected modules without running their code; nil when the name does not follow the rule.
        /// Made when asked for: only `--plugins` asks.
        package var idHint: String? { PluginDiscovery.moduleName(fromFile: fileName).map { $0.lowercased() } }
    }

    /// The plugin files, and the named folders that could not be read: one bad folder (a stale
    /// `DEN_PLUGIN_PATH` entry) costs only its own plugins.
    package func candidates() -> (found: [Candidate], problems: [DiscoveryError]) {
        var found: [Candidate] = []
        var problems: [DiscoveryError] = []
        for (directory, kind) in folders {
            do {
                // Filtered by their bytes while listing, before any String is made or sorted: a
                // build folder holds some 250 entries, a few of them modules.
                let names = try files(in: directory, required: kind == .named,
                                      keeping: kind == .bundled ? Self.isModuleFileName : Self.isLibraryFileName)
                // The same rules by Character for the few kept (a mark can join a byte-wise suffix).
                let plugins = kind == .bundled
                    ? names.filter { $0.hasSuffix(".so") && PluginDiscovery.moduleName(fromFile: $0) != nil }
                    : names.filter { $0.hasSuffix(".so") }
                // A file URL made from the path: `appendingPathComponent` costs a few times more, per file.
                let folderPath = directory.filePath.hasSuffix("/") ? directory.filePath : directory.filePath + "/"
                found += plugins.sorted().map { candidate(folderPath, $0) }
            } catch {
                var error = error
                if kind != .named { error.fix = "make it a readable folder, or start den with --no-default-modules" }
                problems.append(error)
            }
        }
        return (found, problems)
    }

    /// Whether a file-name hint can belong to one of the selected module ids. Ids and names are
    /// compared without case, `-` and `_`: `libCounterCModule.so` may hold `counter-c`.
    package static func hint(_ hint: String, mayMatch selected: Set<String>) -> Bool {
        let wanted = Set(selected.map(normalized))
        return wanted.contains(normalized(hint))
    }

    package static func normalized(_ id: String) -> String {
        id.lowercased().filter { $0 != "-" && $0 != "_" }
    }

    /// `libAboutModule.so` → `About`; nil for any other name.
    package static func moduleName(fromFile name: String) -> String? {
        guard name.hasPrefix("lib"), name.hasSuffix("Module.so") else { return nil }
        // Cut by bytes: both ends are ASCII, matched whole above.
        let utf8 = name.utf8
        guard utf8.count > 12 else { return nil }
        return String(name[utf8.index(utf8.startIndex, offsetBy: 3)..<utf8.index(utf8.endIndex, offsetBy: -9)])
    }

    private func candidate(_ folderPath: String, _ name: String) -> Candidate {
        let path = folderPath + name
        return Candidate(path: path, fileName: name)
    }

    /// `*.so` (".so" itself too, as `hasSuffix` takes it).
    private static func isLibraryFileName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        name.count >= 3 && name[name.count - 3] == UInt8(ascii: ".") && name[name.count - 2] == UInt8(ascii: "s")
            && name[name.count - 1] == UInt8(ascii: "o")
    }

    /// `lib<Name>Module.so` with a name of one byte or more: what `moduleName(fromFile:)` takes.
    private static func isModuleFileName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        name.count > 12 && name.starts(with: "lib".utf8) && name.reversed().starts(with: "os.eludoM".utf8)
    }

    private func files(in directory: URL, required: Bool,
                       keeping keep: (UnsafeBufferPointer<UInt8>) -> Bool) throws(DiscoveryError) -> [String] {
        let path = directory.filePath // without URL.path's first-use cost (URL+FilePath.swift)
        // `stat`, not FileManager: its first use costs a fresh process ≈ 50,000 instructions.
        var info = stat()
        guard stat(path, &info) == 0 else {
            if required { throw DiscoveryError(directory: path, reason: "no such folder (or a parent folder cannot be searched)") }
            return []
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            if required { throw DiscoveryError(directory: path, reason: "it is a file, not a folder") }
            return []
        }
        do {
            return try DirectoryListing.names(atPath: path, keeping: keep)
        } catch {
            throw DiscoveryError(directory: path, reason: error.reason)
        }
    }
}

package struct DiscoveryError: Error, Sendable, CustomStringConvertible {
    package var directory: String
    package var reason: String
    package var fix = "check the --plugin-dir / DEN_PLUGIN_PATH value"

    package init(directory: String, reason: String) {
        self.directory = directory
        self.reason = reason
    }

    package var description: String {
        "plugin folder \(directory): \(reason) — \(fix)"
    }
}
