import DenHost
import DenKit
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Watches folders for files that change, and reports a file once it has stopped changing for
/// `debounce` (a linker or a copy writes a library in many pieces). Two ways to notice a
/// change: inotify (Linux, wakes at once) or polling `stat` every `pollInterval` (works on any
/// file system, e.g. a network mount where inotify sees nothing). docs/HOT_SWAP.md has both
/// measured. One background thread; `stop()` ends it.
public final class FileChangeWatcher: @unchecked Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        /// inotify, else polling when inotify cannot be set up.
        case automatic
        case inotify
        case polling
    }

    public struct Options: Sendable {
        package var mode: Mode = .automatic
        /// How long a file must keep the same size, modification time and inode before it counts.
        package var debounce: Duration = .milliseconds(100)
        /// How often polling looks (and how often the debounce is checked).
        package var pollInterval: Duration = .milliseconds(250)
        /// Look into subfolders too (source trees); plugin folders are flat.
        package var recursive = false

        public init(mode: Mode = .automatic, debounce: Duration = .milliseconds(100),
                    pollInterval: Duration = .milliseconds(250), recursive: Bool = false) {
            self.mode = mode
            self.debounce = debounce
            self.pollInterval = pollInterval
            self.recursive = recursive
        }
    }

    package let folders: [URL]
    package let options: Options
    private let accept: @Sendable (URL) -> Bool
    private let onStable: @Sendable (URL) -> Void
    // `state` is only touched by the watcher thread, except `stopped` (atomic enough under the lock).
    private let lock = Lock()
    private var stopped = false
    /// The mode actually running (automatic resolves to one of the two).
    package private(set) var activeMode: Mode = .polling

    /// - Parameters:
    ///   - accept: which files count (e.g. `*.so`, or a module's `.swift` sources).
    ///   - onStable: called on the watcher thread with each file that changed and is now stable.
    public init(folders: [URL], options: Options = Options(), accept: @escaping @Sendable (URL) -> Bool,
                onStable: @escaping @Sendable (URL) -> Void) {
        self.folders = folders
        self.options = options
        self.accept = accept
        self.onStable = onStable
    }

    deinit { stop() }

    /// Starts watching; files as they are now count as seen (only later changes are reported).
    /// - Throws: `HostThread.StartFailure` when no thread could be started: nothing is watched.
    public func start() throws(HostThread.StartFailure) {
        let inotify = options.mode == .polling ? nil : InotifyHandle(folders: allFolders(), recursive: options.recursive)
        activeMode = inotify == nil ? .polling : .inotify
        // The files as they are now, taken here and not on the thread: a change made just after
        // `start` returns, before the thread first runs, must count as a change.
        var known: [String: FileStamp] = [:]
        for file in files() { known[file.path] = FileStamp(file.path) }
        try HostThread.start(name: "den watcher") { [self, known] in run(inotify: inotify, known: known) }
    }

    public func stop() {
        lock.withLock { stopped = true }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func allFolders() -> [URL] {
        guard options.recursive else { return folders }
        var result: [URL] = []
        for folder in folders { Self.addTree(folder, to: &result) }
        return result
    }

    /// `folder` and the folders under it, one level at a time: an unreadable folder is skipped
    /// (not the whole tree), and a symbolic link to a folder is not followed, so a link loop
    /// cannot make the walk endless.
    private static func addTree(_ folder: URL, to result: inout [URL]) {
        result.append(folder)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let url = folder.appendingPathComponent(name)
            var status = stat()
            if lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { addTree(url, to: &result) }
        }
    }

    private func files() -> [URL] {
        var result: [URL] = []
        for folder in allFolders() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names {
                let url = folder.appendingPathComponent(name)
                if accept(url) { result.append(url) }
            }
        }
        return result
    }

    private func run(inotify: InotifyHandle?, known: [String: FileStamp]) {
        var known = known
        var pending: [String: (url: URL, stamp: FileStamp?, since: ContinuousClock.Instant)] = [:]
        var lastPoll = ContinuousClock.now
        let tick = min(options.pollInterval, max(.milliseconds(5), options.debounce / 2))
        while !isStopped {
            var changed: [URL] = []
            if let inotify {
                changed = inotify.wait(timeout: tick).filter(accept)
            } else {
                HostThread.sleep(for: tick)
                if ContinuousClock.now - lastPoll >= options.pollInterval {
                    lastPoll = .now
                    for file in files() where FileStamp(file.path) != known[file.path] { changed.append(file) }
                }
            }
            let now = ContinuousClock.now
            for file in changed {
                let stamp = FileStamp(file.path)
                if pending[file.path]?.stamp != stamp || pending[file.path] == nil {
                    pending[file.path] = (file, stamp, now)
                }
            }
            // Debounce: report a file once its stamp has held for `debounce`.
            for (path, entry) in pending {
                let stamp = FileStamp(path)
                if stamp != entry.stamp {
                    pending[path] = (entry.url, stamp, now)
                } else if now - entry.since >= options.debounce {
                    pending[path] = nil
                    // Removed files are not reported; a file back as it was is no change.
                    guard let stamp, stamp != known[path] else { continue }
                    known[path] = stamp
                    onStable(entry.url)
                }
            }
        }
    }
}

/// An inotify descriptor watching some folders for written, moved-in and created files.
private final class InotifyHandle: @unchecked Sendable {
    // Used by the watcher thread only, once made.
    private let descriptor: Int32
    private var folderByWatch: [Int32: URL] = [:]
    /// Folders created (or moved in) under a watched one are watched too.
    private let recursive: Bool
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_ATTRIB)

    package init?(folders: [URL], recursive: Bool) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        descriptor = fd
        self.recursive = recursive
        for folder in folders {
            let watch = inotify_add_watch(fd, folder.path, Self.mask)
            if watch >= 0 { folderByWatch[watch] = folder }
        }
        // No folder could be watched (none exists yet, or the limit is reached): poll instead.
        if folderByWatch.isEmpty && !folders.isEmpty {
            close(fd)
            return nil
        }
    }

    deinit { close(descriptor) }

    /// The files named by events within `timeout`.
    package func wait(timeout: Duration) -> [URL] {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&poller, 1, max(1, milliseconds)) > 0 else { return [] }
        var files: [URL] = []
        var newFolders: [URL] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            buffer.withUnsafeBytes { raw in
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameLength = Int(event.len)
                    if nameLength > 0, let folder = folderByWatch[event.wd] {
                        let nameBytes = raw[nameStart ..< min(count, nameStart + nameLength)].prefix { $0 != 0 }
                        let path = folder.appendingPathComponent(String(decoding: nameBytes, as: UTF8.self))
                        if recursive, event.mask & UInt32(IN_ISDIR) != 0, event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                            newFolders.append(path)
                        } else {
                            files.append(path)
                        }
                    }
                    offset = nameStart + nameLength
                }
            }
        }
        // A new folder (`mkdir -p Plugins/Jogs/Views`, a checkout): watch it, and report what was
        // written into it before the watch was in place.
        for folder in newFolders { files += watchTree(folder) }
        return files
    }

    /// Watches `folder` and the folders under it; the files already there.
    private func watchTree(_ folder: URL) -> [URL] {
        let watch = inotify_add_watch(descriptor, folder.path, Self.mask)
        if watch >= 0 { folderByWatch[watch] = folder }
        var files: [URL] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let url = folder.appendingPathComponent(name)
            var isFolder = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
            if isFolder { files += watchTree(url) } else { files.append(url) }
        }
        return files
    }
}
