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
        func fail(_ cause: PluginLoadError.Cause) -> PluginLoadError { PluginLoadError(file: file.path, cause: cause) }
        var info = stat()
        guard stat(file.path, &info) == 0 else { throw fail(.unreadable(String(cString: strerror(errno)))) }
        // Only a readable regular file that starts like a library is worth a copy: not a folder
        // named x.so, not a link to /dev/zero, not a huge text file.
        guard info.st_mode & S_IFMT == S_IFREG else { throw fail(.unreadable("it is not a regular file")) }
        guard info.st_size > 0 else { throw fail(.emptyFile) }

        let stem = file.deletingPathExtension().lastPathComponent
        // The modification time as text (seconds, then nanoseconds): no arithmetic to overflow.
        let nanoseconds = String(info.st_mtim.tv_nsec)
        let modified = "\(UInt64(bitPattern: Int64(info.st_mtim.tv_sec)))\(String(repeating: "0", count: max(0, 9 - nanoseconds.count)))\(nanoseconds)"
        let name = "\(stem)-\(info.st_dev)-\(info.st_ino)-\(info.st_size)-\(modified).so"
        let copy = directory.appendingPathComponent(name)
        var copyInfo = stat()
        if stat(copy.path, &copyInfo) == 0 {
            // Mark it as in use, so no other `den` prunes it as superseded within the hour (at
            // most every ten minutes: a start should not write to the disk each time).
            if Double(time(nil) - copyInfo.st_mtim.tv_sec) > PluginCache.supersededCopyLifetime / 6 {
                _ = utimensat(AT_FDCWD, copy.path, nil, 0)
            }
            return copy
        }
        guard access(file.path, R_OK) == 0 else { throw fail(.unreadable(String(cString: strerror(errno)))) }
        guard PluginCache.startsLikeELF(file) else { throw fail(.notELF) }
        // Write under a private name, then rename: a concurrent `den` never sees half a file.
        let partial = directory.appendingPathComponent(".\(name).\(getpid()).partial")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: partial)
            try FileManager.default.copyItem(at: file, to: partial)
            guard rename(partial.path, copy.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw fail(.cacheUnwritable(directory: directory.path, detail: error.localizedDescription))
        }
        pruneOlderCopies(of: stem, keeping: name)
        return copy
    }

    private static func startsLikeELF(_ file: URL) -> Bool {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var magic = [UInt8](repeating: 0, count: 4)
        let count = magic.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 4) }
        return count == 4 && magic == [0x7F, 0x45, 0x4C, 0x46]
    }

    /// How long a superseded copy is kept after its last use: another `den` may be about to load
    /// it (a running process keeps its mapping even after the file is removed).
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
