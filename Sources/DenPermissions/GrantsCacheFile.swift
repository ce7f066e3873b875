import DenKit
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A copy of a data folder's grants beside its SQLite file (`<data dir>/grants-cache`), valid
/// only while the SQLite file is exactly as it was when the copy was made: so `den render about`
/// holds About to its grant without opening storage, which would load the storage library and
/// Foundation with it (docs/START_PATH.md, "What a fresh process pays for"). Any write to the
/// database since, by any process, changes the file's stamp and the copy is not used.
package struct GrantsCacheFile: Sendable {
    package let file: URL
    /// The storage file whose state the copy is tied to (`storage.sqlite`).
    package let storage: URL

    package init(dataDirectory: URL) {
        file = dataDirectory.appendingPathComponent("grants-cache")
        storage = dataDirectory.appendingPathComponent("storage.sqlite")
    }

    /// The state of the storage file: its identity, size and time, and its write-ahead log's
    /// size and time when the log holds anything. An empty log is left out: opening the
    /// database creates one without writing a thing.
    package func storageStamp() -> String? {
        guard let main = FileStamp(storage.path) else { return nil }
        var stamp = "\(main.device):\(main.inode):\(main.size):\(main.seconds).\(main.nanoseconds)"
        if let log = FileStamp(storage.path + "-wal"), log.size > 0 {
            stamp += " \(log.inode):\(log.size):\(log.seconds).\(log.nanoseconds)"
        }
        return stamp
    }

    /// Whether the storage file or its log changed within the last two seconds.
    private func changedLately() -> Bool {
        let now = Int(Date().timeIntervalSince1970)
        for path in [storage.path, storage.path + "-wal"] {
            if let stamp = FileStamp(path), stamp.size > 0, now - stamp.seconds < 2 { return true }
        }
        return false
    }

    /// The grants the copy holds, when the storage file has not changed since it was made; none
    /// when there is no storage file at all (nothing was ever granted in this folder).
    package func read() -> [String: ModuleGrant]? {
        if access(storage.path, F_OK) != 0, errno == ENOENT { return [:] }
        guard let stamp = storageStamp(), let data = try? Data(contentsOf: file) else { return nil }
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first.map(String.init) == stamp else { return nil }
        lines.removeFirst()
        var grants: [String: ModuleGrant] = [:]
        for line in lines where !line.isEmpty {
            guard let tab = line.firstIndex(of: "\t"),
                  let grant = try? WireFormat.decode(ModuleGrant.self, from: Data(line[line.index(after: tab)...].utf8)) else { return nil }
            grants[String(line[..<tab])] = grant
        }
        return grants
    }

    /// Writes the copy for the grants just read, when the storage file stood still around the
    /// read (`before` is its stamp taken before). Best effort: a copy that cannot be written is
    /// only a slower next start.
    package func write(_ grants: [String: ModuleGrant], stampBefore before: String?) {
        // Git's rule for racy stamps: a file written within the last two seconds may be written
        // again within the same tick of its clock, unseen; such a stamp is not trusted.
        guard let before, before == storageStamp(), !changedLately() else {
            if access(file.path, F_OK) == 0 { try? FileManager.default.removeItem(at: file) }
            return
        }
        var text = before + "\n"
        for (id, grant) in grants.sorted(by: { $0.key < $1.key }) {
            guard let json = try? WireFormat.encode(grant), !id.contains("\t"), !id.contains("\n") else { return }
            text += id + "\t" + String(decoding: json, as: UTF8.self) + "\n"
        }
        // A den serve reads the grants every two seconds: an unchanged copy is not written again.
        if let existing = try? Data(contentsOf: file), existing == Data(text.utf8) { return }
        let partial = file.deletingLastPathComponent().appendingPathComponent(".grants-cache.\(getpid())")
        do {
            try Data(text.utf8).write(to: partial)
            if rename(partial.path, file.path) != 0 { try? FileManager.default.removeItem(at: partial) }
        } catch {
            try? FileManager.default.removeItem(at: partial)
        }
    }
}
