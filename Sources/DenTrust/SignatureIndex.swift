import DenHost
import DenSupport
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
///
/// Read as bytes and looked up by binary search over the lines' paths, stamps compared as
/// numbers: splitting the file into `String`s by `Character` cost a start with a hundred signed
/// modules about a millisecond (docs/SIGNING.md, "The figure"). Written sorted by path.
final class SignatureIndex: Sendable {
    static let fileName = "signatures-v1.tsv"
    static let maximumEntries = 4096
    let file: URL

    /// A file's stamp: what `stat` says of it, as numbers.
    struct Stamp: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
        var changedSeconds: Int64
        var changedNanoseconds: Int64

        init(device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64,
             changedSeconds: Int64, changedNanoseconds: Int64) {
            self.device = device
            self.inode = inode
            self.size = size
            self.modifiedSeconds = modifiedSeconds
            self.modifiedNanoseconds = modifiedNanoseconds
            self.changedSeconds = changedSeconds
            self.changedNanoseconds = changedNanoseconds
        }

        init(_ info: stat) {
            self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                      modifiedSeconds: Int64(info.st_mtim.tv_sec), modifiedNanoseconds: Int64(info.st_mtim.tv_nsec),
                      changedSeconds: Int64(info.st_ctim.tv_sec), changedNanoseconds: Int64(info.st_ctim.tv_nsec))
        }

        /// The stamp of a `stat` start-up made already (discovery stats every module file once).
        init(_ stamp: FileStamp) {
            self.init(device: stamp.device, inode: stamp.inode, size: stamp.size,
                      modifiedSeconds: Int64(stamp.seconds), modifiedNanoseconds: Int64(stamp.nanoseconds),
                      changedSeconds: Int64(stamp.changeSeconds), changedNanoseconds: Int64(stamp.changeNanoseconds))
        }

        /// Nil when `path` cannot be `stat`ed (`errno` says why).
        init?(path: String) {
            var info = stat()
            guard path.withCString({ stat($0, &info) }) == 0 else { return nil }
            self.init(info)
        }

        /// As the index writes it: the seven numbers joined by dots.
        var text: String {
            "\(device).\(inode).\(size).\(modifiedSeconds).\(modifiedNanoseconds).\(changedSeconds).\(changedNanoseconds)"
        }

        /// Read from its text's bytes; nil unless it is seven decimal numbers joined by dots.
        init?(ascii bytes: UnsafeBufferPointer<UInt8>) {
            var numbers: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0)
            var count = 0, value: UInt64 = 0, digits = 0
            for byte in bytes {
                if byte == UInt8(ascii: ".") {
                    guard digits > 0, count < 6 else { return nil }
                    withUnsafeMutableBytes(of: &numbers) { $0.storeBytes(of: value, toByteOffset: count * 8, as: UInt64.self) }
                    count += 1
                    value = 0
                    digits = 0
                    continue
                }
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 19 else { return nil }
                value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
                digits += 1
            }
            guard digits > 0, count == 6 else { return nil }
            numbers.6 = value
            // A signed field above Int64.max is no stamp `stat` gives.
            let (a, b, c, d, e, f, g) = numbers
            guard let size = Int64(exactly: c), let ms = Int64(exactly: d), let mn = Int64(exactly: e),
                  let cs = Int64(exactly: f), let cn = Int64(exactly: g) else { return nil }
            self.init(device: a, inode: b, size: size, modifiedSeconds: ms, modifiedNanoseconds: mn, changedSeconds: cs, changedNanoseconds: cn)
        }
    }

    private struct State {
        /// The file as read (on the first look-up), and its lines' path and whole-line byte
        /// ranges, sorted by the path's bytes; a repeated path keeps its last line.
        var bytes: [UInt8] = []
        var index: [(path: Range<Int>, line: Range<Int>)]?
        /// Lines added in this run, by path: they win over the file's.
        var recorded: [String: String] = [:]
        var changed = false
        var holds = 0
    }

    private let state = Mutex<State>(State())

    init(directory: URL) {
        file = directory.appendingFileName(Self.fileName)
    }

    /// What the index remembers of `path` with these stamps; nil when it remembers nothing, or
    /// something for another version of the file or of its signature.
    func claim(path: String, fileStamp: Stamp, signatureStamp: Stamp) -> ModuleSignature.Claim? {
        state.withLock { state -> ModuleSignature.Claim? in
            load(&state)
            if let line = state.recorded[path] {
                let bytes = Array(line.utf8)
                return bytes.withUnsafeBufferPointer { Self.claim(in: $0, fileStamp: fileStamp, signatureStamp: signatureStamp) }
            }
            guard let line = Self.position(of: path, in: state) else { return nil }
            return state.bytes.withUnsafeBufferPointer { buffer in
                Self.claim(in: UnsafeBufferPointer(rebasing: buffer[line]), fileStamp: fileStamp, signatureStamp: signatureStamp)
            }
        }
    }

    func record(path: String, fileStamp: Stamp, signatureStamp: Stamp, claim: ModuleSignature.Claim) {
        let fields = [path, fileStamp.text, signatureStamp.text, claim.keyID, claim.id, claim.version]
        guard !fields.contains(where: { $0.utf8.contains(UInt8(ascii: "\t")) || $0.utf8.contains(UInt8(ascii: "\n")) }) else { return }
        let save = state.withLock { state -> Bool in
            load(&state)
            state.recorded[path] = fields.joined(separator: "\t")
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

    /// A line's claim when its stamps are these: path, file stamp, signature stamp, key id, id, version.
    private static func claim(in line: UnsafeBufferPointer<UInt8>, fileStamp: Stamp, signatureStamp: Stamp) -> ModuleSignature.Claim? {
        var tabs = (0, 0, 0, 0, 0)
        var count = 0
        for (offset, byte) in line.enumerated() where byte == UInt8(ascii: "\t") {
            guard count < 5 else { return nil }
            withUnsafeMutableBytes(of: &tabs) { $0.storeBytes(of: offset, toByteOffset: count * MemoryLayout<Int>.stride, as: Int.self) }
            count += 1
        }
        guard count == 5 else { return nil }
        func field(_ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: line[(from + 1)..<to]) }
        guard Stamp(ascii: field(tabs.0, tabs.1)) == fileStamp, Stamp(ascii: field(tabs.1, tabs.2)) == signatureStamp else { return nil }
        return ModuleSignature.Claim(keyID: String(decoding: field(tabs.2, tabs.3), as: UTF8.self),
                                     id: String(decoding: field(tabs.3, tabs.4), as: UTF8.self),
                                     version: String(decoding: field(tabs.4, line.count), as: UTF8.self))
    }

    /// The byte range of `path`'s line in the file read, by binary search.
    private static func position(of path: String, in state: State) -> Range<Int>? {
        guard let index = state.index, !index.isEmpty else { return nil }
        var key = path
        return key.withUTF8 { key in
            state.bytes.withUnsafeBufferPointer { buffer in
                var low = 0, high = index.count
                while low < high {
                    let middle = (low + high) / 2
                    let order = compare(UnsafeBufferPointer(rebasing: buffer[index[middle].path]), key)
                    if order == 0 { return index[middle].line }
                    if order < 0 { low = middle + 1 } else { high = middle }
                }
                return nil
            }
        }
    }

    /// memcmp order, then length: the order of UTF-8 bytes.
    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int32 {
        let common = min(a.count, b.count)
        if common > 0, let x = a.baseAddress, let y = b.baseAddress {
            let order = memcmp(x, y, common)
            if order != 0 { return order }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    private func load(_ state: inout State) {
        guard state.index == nil else { return }
        let bytes = FileBytes.read(atPath: file.filePath, limit: 8 << 20) ?? []
        var index: [(path: Range<Int>, line: Range<Int>)] = []
        var unsorted = false
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            func next(_ byte: UInt8, from start: Int, before end: Int) -> Int {
                guard start < end, let found = memchr(base + start, Int32(byte), end - start) else { return end }
                return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            var start = 0
            while start < buffer.count {
                let end = next(UInt8(ascii: "\n"), from: start, before: buffer.count)
                let tab = next(UInt8(ascii: "\t"), from: start, before: end)
                if tab > start, tab < end { index.append((start..<tab, start..<end)) }
                start = end + 1
            }
            func order(_ a: Range<Int>, _ b: Range<Int>) -> Int32 {
                Self.compare(UnsafeBufferPointer(rebasing: buffer[a]), UnsafeBufferPointer(rebasing: buffer[b]))
            }
            // Written sorted; anything else (an edited or older file) is sorted here, keeping the
            // last line of a repeated path, and written sorted by the next save.
            if zip(index, index.dropFirst()).contains(where: { order($0.path, $1.path) >= 0 }) {
                index = PathSortedLines.sorted(index, path: \.path, order: order)
                unsorted = true
            }
        }
        state.bytes = bytes
        state.index = index
        if unsorted { state.changed = true }
    }

    /// Writes the index when it changed: entries of files that still exist, at most
    /// `maximumEntries`, sorted by path; atomic, best effort.
    func save() {
        let text: String? = state.withLock { state in
            guard state.changed, state.holds == 0 else { return nil }
            state.changed = false
            var lines = state.recorded
            for (path, line) in state.index ?? [] {
                let path = String(decoding: state.bytes[path], as: UTF8.self)
                if lines[path] == nil { lines[path] = String(decoding: state.bytes[line], as: UTF8.self) }
            }
            return lines.filter { access($0.key, F_OK) == 0 }
                .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                .prefix(Self.maximumEntries).map { $0.value + "\n" }.joined()
        }
        guard let text else { return }
        try? TrustStore.write(text, to: file)
    }
}
