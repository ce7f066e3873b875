import CDenABI
import DenKit
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The registry cache (GStreamer's idea): what each plugin file's symbols said — ABI version,
/// toolchain, manifest — keyed by the file's path, device, inode, size and modification time, so a
/// start with many modules reads one small file instead of every library's symbol table. An entry
/// whose key no longer matches the file (rebuilt, replaced, touched) is stale and read again from
/// the file. The cache is only a shortcut: a missing, unreadable or damaged cache file is the same
/// as an empty one, and the loader checks every module against its own file when it loads it.
package struct ManifestIndex {
    /// The file's identity when it was read.
    package struct Key: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64

        init(device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64) {
            self.device = device
            self.inode = inode
            self.size = size
            self.modifiedSeconds = modifiedSeconds
            self.modifiedNanoseconds = modifiedNanoseconds
        }

        init?(_ file: URL) {
            guard let stamp = FileStamp(file.filePath) else { return nil }
            self.init(stamp)
        }

        init?(_ stamp: FileStamp) {
            guard stamp.isRegularFile else { return nil }
            device = stamp.device
            inode = stamp.inode
            size = stamp.size
            modifiedSeconds = Int64(stamp.seconds)
            modifiedNanoseconds = Int64(stamp.nanoseconds)
        }
    }

    /// A file's manifest as the cache holds it.
    package enum CachedManifest: Equatable {
        /// Read from the file in this run, or from the cache's plain fields (RegistryCacheFormat).
        case decoded(ModuleManifest)
        /// Compact JSON, decoded only when its file is installed (a manifest with settings or exports).
        case json(String)
    }

    package struct Entry: Equatable {
        var key: Key
        var abiVersion: UInt32?
        var toolchain: String?
        var manifest: CachedManifest?
        /// Why the file cannot be installed from its manifest (none, a bad one, a bad header):
        /// it is loaded at start, where the loader reports any problem properly.
        var eagerBecause: String?

        /// The manifest, checked as the file's own would be; nil without one or when it is refused.
        var checkedManifest: ModuleManifest? {
            try? manifest.flatMap { ManifestIndex.check($0) }?.get()
        }
    }

    /// Version 5 keeps a manifest with navigation entries as JSON (version 4, written before
    /// they existed, may hold such a manifest as plain fields without them). Version 4 keeps
    /// most manifests as plain fields; version 3 kept every manifest as JSON,
    /// decoded at every start (≈ 27,000 instructions a module); version 2 was all JSON, which
    /// cost a start ≈ 15 µs per remembered file; version 1 also wrote `"exports": []` for every
    /// manifest, which a manifest without the key must not be confused with.
    package static let fileName = "manifests-v5.tsv"
    /// Files of earlier formats: never read, removed by the next save and by `den cache clean`.
    package static let olderFileNames = ["manifests-v1.json", "manifests-v2.json", "manifests-v3.tsv", "manifests-v4.tsv"]
    /// Enough for any real set of module folders, small enough to read in a millisecond or two.
    package static let maximumEntries = 2048

    package let file: URL
    /// Entries read from module files in this run (and, while saving, every entry). An unchanged
    /// file's entry is read from its cache line each time it is asked for, and not kept: a start
    /// asks once per file, and a dictionary of a hundred entries cost each module ≈ 5,000
    /// instructions and the start ≈ 25 fresh pages of memory (docs/PERFORMANCE.md).
    private var entries: [String: Entry] = [:]
    /// The cache file's lines by path: a start reads only the lines of its own files.
    private var lines: RegistryCacheFormat.Lines?
    /// The paths asked for in this run, in order (a path may repeat); a set only when saving.
    private var used: [String] = []
    private var changed = false
    /// How the last `entry(for:)` was answered, for `--log-level debug` and the tests.
    package private(set) var hits = 0
    package private(set) var misses = 0
    /// Why the cache file could not be used, when it could not.
    package private(set) var loadProblem: String?

    package init(directory: URL) {
        file = directory.appendingFileName(Self.fileName)
        guard let bytes = FileBytes.read(atPath: file.filePath) else { return }
        guard let lines = RegistryCacheFormat.lines(bytes) else {
            loadProblem = "it does not start with \"\(RegistryCacheFormat.header)\"; it is rebuilt"
            changed = true
            return
        }
        self.lines = lines
        used.reserveCapacity(lines.count)
        if lines.damaged > 0 { noteDamaged(lines.damaged) }
        if !lines.wasInOrder { changed = true } // written again in order by the next save
    }

    private mutating func noteDamaged(_ count: Int) {
        dropped += count
        loadProblem = "\(dropped) damaged line(s) dropped; those files are read again"
        changed = true
    }

    private var dropped = 0

    /// The entry for `path`: read from its file in this run, or its cache line read now.
    private mutating func known(_ path: String) -> Entry? {
        if !entries.isEmpty, let entry = entries[path] { return entry }
        guard let read = lines?.entry(for: path) else { return nil }
        if read.isDamaged {
            lines?.drop(path)
            noteDamaged(1)
        }
        return read.entry
    }

    /// Reads every cache line whose file was not read anew (to save them), dropping the damaged ones.
    private mutating func readAll() {
        guard let lines else { return }
        self.lines = nil
        for path in lines.paths where entries[path] == nil {
            if let entry = lines.entry(for: path).entry { entries[path] = entry } else { noteDamaged(1) }
        }
    }

    /// What `file` says about itself: from the cache when the file is unchanged, else read from
    /// the file (no plugin code runs either way). nil when the file cannot be read at all.
    /// `file` is made only when it is needed (no `path` or `stamp`, or a file read anew): a URL
    /// per module costs a start with many modules.
    package mutating func entry(for file: @autoclosure () -> URL, path: String? = nil, stamp: FileStamp? = nil) -> Entry? {
        var made: URL?
        func url() -> URL {
            if let made { return made }
            made = file()
            return made!
        }
        guard let key = stamp.map({ Key($0) }) ?? Key(url()) else { return nil }
        let path = path ?? url().filePath
        used.append(path)
        if let cached = known(path), cached.key == key {
            hits += 1
            return cached
        }
        misses += 1
        let entry = Self.read(url(), key: key)
        entries[path] = entry
        changed = true
        return entry
    }

    /// This den's toolchain, made once: `DenModule.toolchain` makes it anew from C at every use,
    /// and every Swift module's cache line is checked against it at every start.
    package static let ownToolchain = DenModule.toolchain

    /// The manifest to install `file` from without loading it, or why it must be loaded now.
    package mutating func lazyManifest(for file: @autoclosure () -> URL, path: String? = nil, stamp: FileStamp? = nil) -> Result<ModuleManifest, LoadNow> {
        guard let entry = entry(for: file(), path: path, stamp: stamp) else { return .failure(LoadNow("the file cannot be read")) }
        if let reason = entry.eagerBecause { return .failure(LoadNow(reason)) }
        guard let cached = entry.manifest else { return .failure(LoadNow("it has no manifest")) }
        // The host's own rules, not the cache's word: the ABI, the toolchain, and the manifest
        // decoded and checked as the file's own would be.
        guard entry.abiVersion == DEN_ABI_VERSION else { return .failure(LoadNow("its ABI version is not this host's")) }
        if let toolchain = entry.toolchain, toolchain != Self.ownToolchain {
            return .failure(LoadNow("it was built by another toolchain"))
        }
        switch Self.check(cached) {
        case .success(let manifest): return .success(manifest)
        case .failure(let problem): return .failure(LoadNow("its cached manifest is refused: \(problem)"))
        }
    }

    /// A cached manifest held to the rules a file's own is held to: JSON is decoded and checked,
    /// a decoded one (plain fields need no decoding) is checked.
    package static func check(_ cached: CachedManifest) -> Result<ModuleManifest, ManifestProblem> {
        switch cached {
        case .json(let text): return ManifestDecoding.decode(Array(text.utf8))
        case .decoded(let manifest):
            if let problem = ManifestDecoding.problem(in: manifest) { return .failure(ManifestProblem(problem)) }
            return .success(manifest)
        }
    }

    package struct LoadNow: Error, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    /// Writes the cache when anything changed. It keeps the entries of files seen in this run and
    /// of files that still exist (another run may name other folders), and drops those of removed
    /// files; at most `maximumEntries`, this run's first. Atomic (a temporary file, then rename),
    /// and best effort: a cache that cannot be written costs the next start time, never correctness.
    package mutating func save() -> String? {
        guard changed else { return nil }
        readAll()
        let used = Set(used)
        var kept = entries.filter { used.contains($0.key) }
        for (path, entry) in entries where kept.count < Self.maximumEntries && kept[path] == nil
            && FileManager.default.fileExists(atPath: path) {
            kept[path] = entry
        }
        let partial = file.deletingLastPathComponent().appendingPathComponent(".\(Self.fileName).\(getpid()).partial")
        do {
            let data = RegistryCacheFormat.render(kept)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: partial)
            guard rename(partial.path, file.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            return "could not write the module registry cache \(file.path): \(ErrorText.describe(error))"
        }
        for older in Self.olderFileNames {
            unlink(file.deletingLastPathComponent().appendingPathComponent(older).path)
        }
        entries = kept
        changed = false
        return nil
    }

    /// Reads a file's symbols: the ELF header first (a library for another CPU, or a truncated
    /// one, is left to the loader, which says what is wrong with it).
    private static func read(_ file: URL, key: Key) -> Entry {
        var entry = Entry(key: key)
        guard let read = try? ELFHeader.read(file), let header = read.header, header.isELF,
              header.machine == ELFHeader.hostMachine.machine, header.is64Bit == ELFHeader.hostMachine.is64Bit,
              header.requiredSize <= read.fileSize else {
            entry.eagerBecause = "its ELF header is not a loadable library for this machine"
            return entry
        }
        guard let probe = ManifestProbe.read(file) else {
            entry.eagerBecause = "its symbols cannot be read without loading it (no section headers)"
            return entry
        }
        entry.abiVersion = probe.abiVersion
        entry.toolchain = probe.toolchain
        switch probe.manifest {
        case .success(let manifest): entry.manifest = .decoded(manifest)
        case .failure(let problem): entry.eagerBecause = "its manifest is refused: \(problem)"
        case nil: break
        }
        return entry
    }
}

private extension ManifestIndex.Entry {
    package init(key: ManifestIndex.Key) {
        self.init(key: key, abiVersion: nil, toolchain: nil, manifest: nil, eagerBecause: nil)
    }
}
