import DenLibraryClients
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Gives every version of a plugin file its own path. `dlopen` of a path that is already loaded
/// returns the old image even after the file was replaced, and overwriting a loaded image
/// crashes the process; so the host loads a copy named after the file's identity (device, inode,
/// size, modification and change time) and never touches a copy once written. A later run reuses the copy.
///
/// The cache stays bounded: a copy of a file that failed to load is removed at once (`discard`),
/// and copies unused for `Limits.maxUnusedAge`, or beyond `Limits.maxBytes` (least recently used
/// first), are removed when a new copy is written and at most once a day otherwise (`prune`).
/// A copy used within the last hour is never pruned: another `den` may be about to load it.
public struct PluginCache: Sendable {
    package let directory: URL
    package let limits: Limits
    /// Copies a plugin file (FileManager's copy); a spec replaces it to change the file mid-copy.
    var copyFile: @Sendable (_ from: URL, _ to: URL) throws -> Void = { try FileManager.default.copyItem(at: $0, to: $1) }

    public struct Limits: Sendable, Equatable {
        package var maxBytes: Int64
        package var maxUnusedAge: TimeInterval

        package init(maxBytes: Int64, maxUnusedAge: TimeInterval) {
            self.maxBytes = maxBytes
            self.maxUnusedAge = maxUnusedAge
        }

        /// 256 MB (a bundled module is 1–3 MB) and 30 days.
        public static let `default` = Limits(maxBytes: 256 << 20, maxUnusedAge: 30 * 86_400)
    }

    public init(directory: URL, limits: Limits = .default) {
        self.directory = directory
        self.limits = limits
    }

    /// The default folder: `$DEN_CACHE_DIR`, else `$XDG_CACHE_HOME/den/plugins`, else `~/.cache/den/plugins`.
    public static func defaultDirectory(environment: [String: String] = ProcessEnvironment.hostVariables()) -> URL {
        if let explicit = environment["DEN_CACHE_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? InstallLayout.homeDirectory().appendingPathComponent(".cache", isDirectory: true)
        return base.appendingPathComponent("den/plugins", isDirectory: true)
    }

    /// A staged copy, and whether an earlier run had already made it (for `--log-level debug`).
    package struct StagedCopy: Sendable, Equatable {
        package var url: URL
        package var reused: Bool
        /// The staged file's identity when it was staged: the copy holds exactly that version.
        var source: FileStamp?

        package init(url: URL, reused: Bool) {
            self.url = url
            self.reused = reused
        }

        init(url: URL, reused: Bool, source: FileStamp) {
            self.init(url: url, reused: reused)
            self.source = source
        }
    }

    /// Returns the path of this version's copy, copying the file if this version was never staged.
    public func stage(_ file: URL) throws(PluginLoadError) -> URL {
        try stageCopy(file).url
    }

    package func stageCopy(_ file: URL) throws(PluginLoadError) -> StagedCopy {
        try stageCopy(file, attempts: 3)
    }

    /// A copy is named after the file's stamp before copying; a file that changed while it was
    /// copied (a build writing it) would leave another version under that name, so it is staged
    /// again, `attempts` times in all.
    private func stageCopy(_ file: URL, attempts: Int) throws(PluginLoadError) -> StagedCopy {
        // Paths without URL.path's first-use cost (URL+FilePath.swift): this runs on every start.
        let filePath = file.filePath
        func fail(_ cause: PluginLoadError.Cause) -> PluginLoadError { PluginLoadError(file: filePath, cause: cause) }
        var info = stat()
        guard stat(filePath, &info) == 0 else { throw fail(.unreadable(String(cString: strerror(errno)))) }
        // Only a readable regular file that starts like a library is worth a copy: not a folder
        // named x.so, not a link to /dev/zero, not a huge text file.
        guard info.st_mode & S_IFMT == S_IFREG else { throw fail(.unreadable("it is not a regular file")) }
        guard info.st_size > 0 else { throw fail(.emptyFile) }

        let stem = PluginCache.stem(of: file.fileName)
        // The modification and change times as digits, each part at a fixed width so that no two
        // stamps read alike. The change time, which nobody can set back, tells a file rewritten in
        // place with its size and modification time kept (the signature cache keys on it too).
        let times = PluginCache.digits(info.st_mtim) + PluginCache.digits(info.st_ctim)
        let name = "\(stem)-\(info.st_dev)-\(info.st_ino)-\(info.st_size)-\(times).so"
        let copy = directory.appendingFileName(name)
        var copyInfo = stat()
        if stat(copy.filePath, &copyInfo) == 0 {
            // Mark it as in use, so no other `den` prunes it within the hour (at most every ten
            // minutes: a start should not write to the disk each time).
            if Double(time(nil) - copyInfo.st_mtim.tv_sec) > PluginCache.recentUseWindow / 6 {
                _ = utimensat(AT_FDCWD, copy.filePath, nil, 0)
            }
            return StagedCopy(url: copy, reused: true, source: FileStamp(info))
        }
        guard access(filePath, R_OK) == 0 else { throw fail(.unreadable(String(cString: strerror(errno)))) }
        guard PluginCache.startsLikeELF(file) else { throw fail(.notELF) }
        // Write under a private name, then rename: a concurrent `den` never sees half a file.
        let partial = directory.appendingPathComponent(".\(name).\(getpid()).partial")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: partial)
            try copyFile(file, partial)
            guard FileStamp(filePath) == FileStamp(info) else {
                try? FileManager.default.removeItem(at: partial)
                guard attempts > 1 else {
                    throw fail(.unreadable("it kept changing while den copied it (is a build still writing it?); try again once it is written"))
                }
                return try stageCopy(file, attempts: attempts - 1)
            }
            guard rename(partial.path, copy.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: ["NSLocalizedDescription": String(cString: strerror(errno))])
            }
        } catch let error as PluginLoadError {
            throw error
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw fail(.cacheUnwritable(directory: directory.path, detail: ErrorText.describe(error)))
        }
        pruneOlderCopies(of: stem, keeping: name)
        // The cache just grew: keep it within its limits.
        prune(keeping: [name])
        return StagedCopy(url: copy, reused: false, source: FileStamp(info))
    }

    /// A time as 29 digits: seconds (20, zero-padded), then nanoseconds (9). No arithmetic to overflow.
    static func digits(_ time: timespec) -> String {
        let seconds = String(UInt64(bitPattern: Int64(time.tv_sec))), nanoseconds = String(time.tv_nsec)
        return String(repeating: "0", count: max(0, 20 - seconds.count)) + seconds
            + String(repeating: "0", count: max(0, 9 - nanoseconds.count)) + nanoseconds
    }

    /// A plugin file's name without its extension, as `deletingPathExtension().lastPathComponent`
    /// gives it (`libAboutModule.so` → `libAboutModule`), by bytes for the usual `.so`.
    static func stem(of name: String) -> String {
        guard name.utf8.count > 3, name.hasSuffix(".so") else {
            return URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
        }
        return String(name.utf8.dropLast(3))!
    }

    /// Removes the copy of a file that failed to load: it would never be loaded again (a new
    /// version gets a new name), so keeping it only grows the cache.
    package func discard(_ copy: URL) {
        guard copy.deletingLastPathComponent().standardizedFileURL.path == directory.standardizedFileURL.path,
              PluginCacheEntry.isCopyName(copy.lastPathComponent) else { return }
        try? FileManager.default.removeItem(at: copy)
    }

    private static func startsLikeELF(_ file: URL) -> Bool {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var magic = [UInt8](repeating: 0, count: 4)
        let count = magic.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 4) }
        return count == 4 && magic == [0x7F, 0x45, 0x4C, 0x46]
    }

    /// A copy used within this window is never removed by pruning: another `den` may be about
    /// to load it (a running process keeps its mapping even after the file is removed).
    static let recentUseWindow: TimeInterval = 3600

    /// Removes copies of earlier versions of the same plugin, so rebuilding a plugin does not
    /// grow the cache forever. Best effort: a copy that cannot be removed stays.
    private func pruneOlderCopies(of stem: String, keeping current: String) {
        let cutoff = Date().addingTimeInterval(-PluginCache.recentUseWindow)
        for entry in entries() where entry.name != current && entry.stem == stem && entry.lastUsed < cutoff {
            try? FileManager.default.removeItem(at: entry.url)
        }
    }
}
