import DenModuleFiles
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One file in the plugin cache that den made: a copy (`<stem>-<dev>-<ino>-<size>-<mtime><ctime>.so`)
/// or a copy being written (`.<copy name>.<pid>.partial`). Nothing else in the folder is ever
/// touched, so `--cache-dir` pointed at a wrong folder cannot cost a user's files.
package struct PluginCacheEntry: Sendable, Equatable {
    package var name: String
    package var url: URL
    package var size: Int64
    /// The copy's modification time, refreshed when a run reuses it (see `PluginCache.stageCopy`).
    package var lastUsed: Date
    package var isPartial: Bool

    /// `libAboutModule` for `libAboutModule-2049-1234-5678-1700000000000000000.so`.
    package var stem: String? {
        guard !isPartial else { return nil }
        let parts = name.dropLast(3).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count > 4 ? parts.dropLast(4).joined(separator: "-") : nil
    }

    static func isCopyName(_ name: String) -> Bool {
        guard name.hasSuffix(".so"), !name.hasPrefix(".") else { return false }
        let parts = name.dropLast(3).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count > 4 && !parts[0].isEmpty
            && parts.suffix(4).allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    static func isPartialName(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".partial") else { return false }
        let inner = name.dropFirst().dropLast(".partial".count)
        guard let dot = inner.lastIndex(of: "."), inner[inner.index(after: dot)...].allSatisfy(\.isNumber) else { return false }
        return isCopyName(String(inner[..<dot]))
    }
}

/// What `prune` or `clean` removed.
package struct PluginCacheReport: Sendable, Equatable {
    package var removed = 0
    package var bytes: Int64 = 0
    package var failures: [String] = []
    /// `clean` also removed the module registry cache (lazy loading's manifests, `manifests-v5.tsv`).
    package var removedRegistryCache = false
}

extension PluginCache {
    /// The files den made in the cache folder, oldest use first.
    package func entries() -> [PluginCacheEntry] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.compactMap { name -> PluginCacheEntry? in
            let partial = PluginCacheEntry.isPartialName(name)
            guard partial || PluginCacheEntry.isCopyName(name) else { return nil }
            let url = directory.appendingPathComponent(name)
            var info = stat()
            // lstat: a link planted in the cache is listed by its own size and never followed.
            guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG || info.st_mode & S_IFMT == S_IFLNK else { return nil }
            let used = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
            return PluginCacheEntry(name: name, url: url, size: Int64(info.st_size), lastUsed: used, isPartial: partial)
        }.sorted { ($0.lastUsed, $0.name) < ($1.lastUsed, $1.name) }
    }

    /// Removes copies unused for longer than `limits.maxUnusedAge`, leftovers of interrupted
    /// copies, then the least recently used copies until the cache fits in `limits.maxBytes`.
    /// Copies in `keeping` and copies used within the last hour stay (another `den` may be
    /// about to load them), so the cache can exceed its size for up to an hour.
    @discardableResult
    package func prune(keeping: Set<String> = [], now: Date = Date()) -> PluginCacheReport {
        var report = PluginCacheReport()
        var remaining: [PluginCacheEntry] = []
        let recent = now.addingTimeInterval(-PluginCache.recentUseWindow)
        let expired = now.addingTimeInterval(-limits.maxUnusedAge)
        for entry in entries() {
            let stale = entry.isPartial ? entry.lastUsed < recent : entry.lastUsed < expired
            if stale && !keeping.contains(entry.name) { remove(entry, into: &report) } else { remaining.append(entry) }
        }
        var total = remaining.reduce(0) { $0 + $1.size }
        for entry in remaining where total > limits.maxBytes {
            guard !keeping.contains(entry.name), entry.lastUsed < recent else { continue }
            if remove(entry, into: &report) { total -= entry.size }
        }
        markPruned()
        return report
    }

    /// Prunes when the last prune was more than a day ago: a cache nobody adds to still ages.
    package func pruneIfDue(now: Date = Date()) -> PluginCacheReport? {
        var info = stat()
        if stat(stamp.filePath, &info) == 0, now.timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec) < 86_400 { return nil }
        guard FileManager.default.fileExists(atPath: directory.filePath) else { return nil }
        return prune(now: now)
    }

    /// Removes every copy (`den cache clean`). A running `den` keeps the copies it has loaded
    /// mapped; the next start copies its plugins again.
    @discardableResult
    /// `progress` hears how many copies of how many are done.
    package func clean(progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) -> PluginCacheReport {
        var report = PluginCacheReport()
        let all = entries()
        for (index, entry) in all.enumerated() {
            progress(index, all.count)
            remove(entry, into: &report)
        }
        progress(all.count, all.count)
        try? FileManager.default.removeItem(at: stamp)
        // The registry cache goes too: a clean cache means the next start reads every module file.
        for name in [ManifestIndex.fileName] + ManifestIndex.olderFileNames {
            if unlink(directory.appendingPathComponent(name).path) == 0 {
                report.removedRegistryCache = true
            } else if errno != ENOENT {
                report.failures.append("\(name): \(String(cString: strerror(errno)))")
            }
        }
        return report
    }

    private var stamp: URL { directory.appendingFileName(".last-prune") }

    private func markPruned() {
        guard FileManager.default.fileExists(atPath: directory.path) else { return }
        if FileManager.default.createFile(atPath: stamp.path, contents: nil) == false { return }
    }

    @discardableResult
    private func remove(_ entry: PluginCacheEntry, into report: inout PluginCacheReport) -> Bool {
        if unlink(entry.url.path) == 0 {
            report.removed += 1
            report.bytes += entry.size
            return true
        }
        report.failures.append("\(entry.name): \(String(cString: strerror(errno)))")
        return false
    }
}
