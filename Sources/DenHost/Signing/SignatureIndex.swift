import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Signatures already checked, so a start with many signed modules hashes none of them: each
/// line says "the file at this path, with this stamp, carries a valid signature (this
/// `.minisig`, with its stamp) by key K for module id and version". The stamp is device, inode,
/// size, modification *and change* time: the change time cannot be set back by a user, so a
/// file rewritten in place with its old modification time still misses. Only valid signatures
/// are kept, and never whether a key is trusted: the trust list is asked at every check, so a
/// revocation counts at once. Like the registry cache it lives in den's cache folder; a lost or
/// damaged file costs time, never correctness (docs/SIGNING.md, "What is checked when").
final class SignatureIndex: Sendable {
    static let fileName = "signatures-v1.tsv"
    static let maximumEntries = 4096
    let file: URL

    private struct State {
        /// The lines of the file by path (read on the first look-up), and the lines added since.
        var lines: [String: String]?
        var changed = false
        var holds = 0
    }

    private let state = Mutex<State>(State())

    init(directory: URL) {
        file = directory.appendingFileName(Self.fileName)
    }

    /// A file's stamp as the index writes it; nil when it cannot be `stat`ed.
    static func stamp(_ path: String) -> String? {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { return nil }
        return "\(info.st_dev).\(info.st_ino).\(info.st_size).\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec).\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    func claim(path: String, fileStamp: String, signatureStamp: String) -> ModuleSignature.Claim? {
        state.withLock { state -> ModuleSignature.Claim? in
            load(&state)
            guard let line = state.lines?[path] else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 6, fields[1] == Substring(fileStamp), fields[2] == Substring(signatureStamp) else { return nil }
            return ModuleSignature.Claim(keyID: String(fields[3]), id: String(fields[4]), version: String(fields[5]))
        }
    }

    func record(path: String, fileStamp: String, signatureStamp: String, claim: ModuleSignature.Claim) {
        let fields = [path, fileStamp, signatureStamp, claim.keyID, claim.id, claim.version]
        guard !fields.contains(where: { $0.contains("\t") || $0.contains("\n") }) else { return }
        let save = state.withLock { state -> Bool in
            load(&state)
            state.lines?[path] = fields.joined(separator: "\t")
            state.changed = true
            return state.holds == 0
        }
        if save { self.save() }
    }

    /// Between `hold` and `release` new entries are saved once, at the release, instead of
    /// each at once (a start checking many files).
    func hold() { state.withLock { $0.holds += 1 } }

    func release() {
        state.withLock { $0.holds -= 1 }
        save()
    }

    private func load(_ state: inout State) {
        guard state.lines == nil else { return }
        var lines: [String: String] = [:]
        if let bytes = FileBytes.read(atPath: file.filePath, limit: 8 << 20) {
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                guard let tab = line.firstIndex(of: "\t") else { continue }
                lines[String(line[..<tab])] = String(line)
            }
        }
        state.lines = lines
    }

    /// Writes the index when it changed: entries of files that still exist, at most
    /// `maximumEntries`; atomic, best effort.
    func save() {
        let text: String? = state.withLock { state in
            guard state.changed, state.holds == 0, let lines = state.lines else { return nil }
            state.changed = false
            return lines.filter { access($0.key, F_OK) == 0 }.prefix(Self.maximumEntries).map { $0.value + "\n" }.joined()
        }
        guard let text else { return }
        try? TrustStore.write(text, to: file)
    }
}
