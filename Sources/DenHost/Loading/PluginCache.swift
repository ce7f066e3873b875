import Foundation

/// Gives every version of a plugin file its own path. `dlopen` of a path that is already loaded
/// returns the old image even after the file was replaced, and overwriting a loaded image
/// crashes the process; so the host loads a copy named after the file's identity (device, inode,
/// size, modification time) and never touches a copy once written. A later run reuses the copy.
public struct PluginCache: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// The default folder: `$DEN_CACHE_DIR`, else `$XDG_CACHE_HOME/den/plugins`, else `~/.cache/den/plugins`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["DEN_CACHE_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        return base.appendingPathComponent("den/plugins", isDirectory: true)
    }

    /// Returns the path of this version's copy, copying the file if this version was never staged.
    public func stage(_ file: URL) throws(PluginLoadError) -> URL {
        var info = stat()
        guard stat(file.path, &info) == 0 else {
            throw PluginLoadError(file: file.path, cause: .unreadable(String(cString: strerror(errno))))
        }
        let stem = file.deletingPathExtension().lastPathComponent
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let name = "\(stem)-\(info.st_dev)-\(info.st_ino)-\(info.st_size)-\(modified).so"
        let copy = directory.appendingPathComponent(name)
        if access(copy.path, F_OK) == 0 { return copy }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // Write under a private name, then rename: a concurrent `den` never sees half a file.
            let partial = directory.appendingPathComponent(".\(name).\(getpid()).partial")
            try? FileManager.default.removeItem(at: partial)
            try FileManager.default.copyItem(at: file, to: partial)
            guard rename(partial.path, copy.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
        } catch {
            throw PluginLoadError(file: file.path, cause: .cacheUnwritable(directory: directory.path, detail: error.localizedDescription))
        }
        pruneOlderCopies(of: stem, keeping: name)
        return copy
    }

    /// How long a superseded copy is kept: another `den` started before the rebuild may still be
    /// about to load it (a running process keeps its mapping even after the file is removed).
    static let supersededCopyLifetime: TimeInterval = 3600

    /// Removes copies of earlier versions of the same plugin, so rebuilding a plugin does not
    /// grow the cache forever. Best effort: a copy that cannot be removed stays.
    private func pruneOlderCopies(of stem: String, keeping current: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        let cutoff = Date().addingTimeInterval(-PluginCache.supersededCopyLifetime)
        for name in names where name != current && name.hasPrefix(stem + "-") && name.hasSuffix(".so") {
            // Only names of the form <stem>-<dev>-<ino>-<size>-<mtime>.so belong to this plugin.
            let identity = name.dropFirst(stem.count + 1).dropLast(3).split(separator: "-")
            guard identity.count == 4, identity.allSatisfy({ $0.allSatisfy(\.isNumber) }) else { continue }
            let path = directory.appendingPathComponent(name).path
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                  modified < cutoff else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
