import DenKit
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The registry cache's file format: a header line, then one line per module file with tab-
/// separated fields — path, device, inode, size, modification seconds and nanoseconds, ABI
/// version, toolchain, why the file must be loaded at start, then its manifest: as compact JSON,
/// or (version 4) as plain fields — id, version, summary, whether it lists exports, and its
/// routes — when it declares no settings, exports, navigation, permissions or requires, as most manifests do.
/// Text fields escape `\`, tab, line feed and carriage return; an empty field is "none".
///
/// Not JSON: JSONDecoder spent ≈ 15 µs walking each entry, so a cache that remembers a hundred
/// files cost a millisecond and a half at every start, whatever this start needed
/// (docs/PERFORMANCE.md). Lines are split without decoding anything; a JSON manifest is decoded
/// only when its file is installed, a plain one costs its few strings. A line that does not
/// parse is dropped (its file is read again).
package enum RegistryCacheFormat {
    package static let header = "den-module-registry 6"

    /// The cache file cut into lines by path, each read into an entry only when asked for: the
    /// file keeps a line per module file any run has seen, and a start needs only its own.
    /// Lines are found by their path's bytes, by binary search: no `String` and no hash per line
    /// or per look-up (a dictionary by path cost each module ≈ 3,000 instructions at start).
    package struct Lines {
        fileprivate let bytes: [UInt8]
        /// Each line's path field and whole line, as byte ranges of `bytes`, sorted by the path
        /// field's bytes; a path that repeats keeps its last line.
        fileprivate var index: [(path: Range<Int>, line: Range<Int>)]
        /// Lines whose path could not be read (dropped at once).
        let damaged: Int
        /// Whether the lines came sorted by path and without a repeat, as `render` writes them
        /// (else they were sorted here, and the file is worth writing again).
        let wasInOrder: Bool

        var count: Int { index.count }

        /// Every line's path (unescaped), for a save.
        var paths: [String] { index.compactMap { RegistryCacheFormat.text(bytes[$0.path]) } }

        /// The entry of `path`'s line, read now; nil when there is no line for it or its line is
        /// damaged (`isDamaged` then says which).
        func entry(for path: String) -> (entry: ManifestIndex.Entry?, isDamaged: Bool) {
            guard let found = position(of: path) else { return (nil, false) }
            // Moved out, not compared with nil: that copied the whole entry for every module.
            guard let entry = RegistryCacheFormat.entry(in: bytes, line: index[found].line) else { return (nil, true) }
            return (entry, false)
        }

        /// Forgets `path`'s line (a damaged one, so it is counted once).
        mutating func drop(_ path: String) {
            if let found = position(of: path) { index.remove(at: found) }
        }

        private func position(of path: String) -> Int? {
            var key = path
            // The file holds escaped paths; a path with a tab, a line break or a backslash is rare.
            if key.withUTF8({ $0.contains(where: RegistryCacheFormat.needsEscape) }) { key = RegistryCacheFormat.escape(path) }
            return key.withUTF8 { key in
                bytes.withUnsafeBufferPointer { buffer in
                    var low = 0, high = index.count
                    while low < high {
                        let middle = (low + high) / 2
                        let order = RegistryCacheFormat.compare(UnsafeBufferPointer(rebasing: buffer[index[middle].path]), key)
                        if order == 0 { return middle }
                        if order < 0 { low = middle + 1 } else { high = middle }
                    }
                    return nil
                }
            }
        }
    }

    /// The lines of a cache file; nil when its header is not this format's.
    package static func lines(_ data: Data) -> Lines? {
        lines([UInt8](data))
    }

    package static func lines(_ bytes: [UInt8]) -> Lines? {
        // Contiguous bytes, cut at offsets memchr finds: `split` made an array of slices per
        // line, and a slice of `Data` is read a byte at a time by the text and integer parsers
        // (≈ 17 µs a line before).
        bytes.withUnsafeBufferPointer { buffer -> Lines? in
            guard let base = buffer.baseAddress else { return nil }
            var lineEnd = next(UInt8(ascii: "\n"), in: base, from: 0, before: buffer.count)
            guard String(decoding: buffer[..<lineEnd], as: UTF8.self) == header else { return nil }
            var index: [(path: Range<Int>, line: Range<Int>)] = []
            var damaged = 0
            while lineEnd < buffer.count {
                let lineStart = lineEnd + 1
                lineEnd = next(UInt8(ascii: "\n"), in: base, from: lineStart, before: buffer.count)
                guard lineEnd > lineStart else { continue } // an empty line
                let tab = next(UInt8(ascii: "\t"), in: base, from: lineStart, before: lineEnd)
                let path = UnsafeBufferPointer(rebasing: buffer[lineStart..<tab])
                // Bytes that are not UTF-8 cannot be a path; ASCII needs no check.
                guard tab < lineEnd, !path.isEmpty, !path.contains(where: { $0 >= 0x80 }) || UTF8Text.string(validating: path) != nil else {
                    damaged += 1
                    continue
                }
                index.append((lineStart..<tab, lineStart..<lineEnd))
            }
            // The file is written sorted by path; anything else (an edited file) is sorted here,
            // keeping the last line of a repeated path.
            func order(_ a: Range<Int>, _ b: Range<Int>) -> Int32 {
                compare(UnsafeBufferPointer(rebasing: buffer[a]), UnsafeBufferPointer(rebasing: buffer[b]))
            }
            let wasInOrder = !zip(index, index.dropFirst()).contains(where: { order($0.path, $1.path) >= 0 })
            if !wasInOrder { index = PathSortedLines.sorted(index, path: \.path, order: order) }
            return Lines(bytes: bytes, index: index, damaged: damaged, wasInOrder: wasInOrder)
        }
    }

    /// memcmp order, then length: the order of UTF-8 bytes.
    fileprivate static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int32 {
        let common = min(a.count, b.count)
        if common > 0, let x = a.baseAddress, let y = b.baseAddress {
            let order = memcmp(x, y, common)
            if order != 0 { return order }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// Every entry, and how many lines were dropped; nil when the header is not this format's.
    package static func parse(_ data: Data) -> (entries: [String: ManifestIndex.Entry], dropped: Int)? {
        guard let lines = lines(data) else { return nil }
        var entries: [String: ManifestIndex.Entry] = Dictionary(minimumCapacity: lines.count)
        var dropped = lines.damaged
        for path in lines.paths {
            if let entry = lines.entry(for: path).entry { entries[path] = entry } else { dropped += 1 }
        }
        return (entries, dropped)
    }

    /// The offset of the next `byte` in start..<end, or end.
    private static func next(_ byte: UInt8, in base: UnsafePointer<UInt8>, from start: Int, before end: Int) -> Int {
        guard start < end, let found = memchr(base + start, Int32(byte), end - start) else { return end }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The entry one line holds (its path aside); nil when the line is damaged.
    private static func entry(in bytes: [UInt8], line: Range<Int>) -> ManifestIndex.Entry? {
        // On the stack: an array per line was an allocation per module at start.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: fieldCount + 1) { starts in
            entry(in: bytes, line: line, starts: starts)
        }
    }

    private static func entry(in bytes: [UInt8], line: Range<Int>, starts: UnsafeMutableBufferPointer<Int>) -> ManifestIndex.Entry? {
        bytes.withUnsafeBufferPointer { buffer -> ManifestIndex.Entry? in
            guard let base = buffer.baseAddress else { return nil }
            // Field i is bytes[starts[i] ..< starts[i + 1] - 1]; a line with another number of
            // fields is damaged.
            var count = 1
            starts[0] = line.lowerBound
            var tab = next(UInt8(ascii: "\t"), in: base, from: line.lowerBound, before: line.upperBound)
            while tab < line.upperBound, count <= fieldCount {
                if count < fieldCount { starts[count] = tab + 1 }
                count += 1
                tab = next(UInt8(ascii: "\t"), in: base, from: tab + 1, before: line.upperBound)
            }
            guard count == fieldCount else { return nil }
            starts[fieldCount] = line.upperBound + 1
            func field(_ number: Int) -> ArraySlice<UInt8> { bytes[starts[number] ..< starts[number + 1] - 1] }
            guard let device = UInt64(ascii: field(1)), let inode = UInt64(ascii: field(2)),
                  let size = Int64(ascii: field(3)), let seconds = Int64(ascii: field(4)),
                  let nanoseconds = Int64(ascii: field(5)) else { return nil }
            let abi: UInt32?
            if field(6).isEmpty { abi = nil } else if let value = UInt32(ascii: field(6)) { abi = value } else { return nil }
            let key = ManifestIndex.Key(device: device, inode: inode, size: size,
                                        modifiedSeconds: seconds, modifiedNanoseconds: nanoseconds)
            let manifest: ManifestIndex.CachedManifest?
            switch (text(field(9)), text(field(10))) {
            case (nil, nil): manifest = nil
            case (let json?, nil): manifest = .json(json)
            case (nil, let id?):
                guard let plain = plainManifest(id: id, version: text(field(11)), summary: text(field(12)),
                                                exports: field(13), routes: field(14)) else { return nil }
                manifest = .decoded(plain)
            default: return nil // both forms: not a line this format writes
            }
            return ManifestIndex.Entry(key: key, abiVersion: abi, toolchain: toolchain(field(7)), manifest: manifest,
                                       eagerBecause: text(field(8)))
        }
    }

    /// Path, device, inode, size, seconds, nanoseconds, ABI, toolchain, why eager, manifest JSON,
    /// then a plain manifest's id, version, summary, exports mark and routes.
    private static let fieldCount = 15
    /// The exports field of a plain manifest that lists its exports (an empty list: any other
    /// list makes the manifest JSON).
    private static let declaresExports = "declared"

    package static func render(_ entries: [String: ManifestIndex.Entry]) -> Data {
        var out = header + "\n"
        // In the order `Lines` searches: by the escaped path's UTF-8 bytes.
        let ordered = entries.map { (escaped: Array(escape($0.key).utf8), entry: $0.value) }
            .sorted { $0.escaped.lexicographicallyPrecedes($1.escaped) }
        for (escapedPath, entry) in ordered {
            let key = entry.key
            var fields = [String(decoding: escapedPath, as: UTF8.self), "\(key.device)", "\(key.inode)", "\(key.size)", "\(key.modifiedSeconds)",
                          "\(key.modifiedNanoseconds)", entry.abiVersion.map { "\($0)" } ?? "", escape(entry.toolchain),
                          escape(entry.eagerBecause)]
            switch entry.manifest {
            case nil: fields += ["", "", "", "", "", ""]
            case .decoded(let manifest) where isPlain(manifest):
                fields += ["", escape(manifest.id), escape(manifest.version), escape(manifest.summary),
                           manifest.declaresExports ? declaresExports : "", escape(routesText(manifest.routes))]
            case .decoded(let manifest):
                let json = (try? JSONEncoder().encode(manifest)).map { String(decoding: $0, as: UTF8.self) }
                fields += [escape(json), "", "", "", "", ""]
            case .json(let json): fields += [escape(json), "", "", "", "", ""]
            }
            out += fields.joined(separator: "\t") + "\n"
        }
        return Data(out.utf8)
    }

    /// Whether the plain fields carry all of `manifest`: no settings, no exports, and routes
    /// that the routes field can hold (a line each).
    package static func isPlain(_ manifest: ModuleManifest) -> Bool {
        manifest.v == ModuleManifest.formatVersion && manifest.settings.isEmpty && manifest.exports.isEmpty
            && manifest.navigation.isEmpty && manifest.permissions.isEmpty && manifest.permissions.unknownNames.isEmpty && manifest.requires.isEmpty
            && !manifest.id.isEmpty && !manifest.version.isEmpty
            && manifest.routes.allSatisfy { !$0.pattern.utf8.contains(UInt8(ascii: "\n")) }
    }

    /// A line per route: `+` for one that needs a logged-in user, else `-`, then its pattern.
    private static func routesText(_ routes: [ModuleManifest.Route]) -> String {
        var text = ""
        for (index, route) in routes.enumerated() {
            if index > 0 { text += "\n" }
            text += (route.requiresLogin ? "+" : "-") + route.pattern
        }
        return text
    }

    private static func plainManifest(id: String, version: String?, summary: String?, exports: ArraySlice<UInt8>,
                                      routes field: ArraySlice<UInt8>) -> ModuleManifest? {
        guard let version else { return nil }
        let declared: Bool
        if exports.isEmpty { declared = false } else if exports.elementsEqual(declaresExports.utf8) { declared = true } else { return nil }
        var parsed: [ModuleManifest.Route] = []
        if !field.isEmpty {
            // A line each: a mark, then the pattern (which holds no line feed). Read from the
            // line's own bytes; a field with an escape (two routes or more: the line feeds between
            // them are escaped) is unescaped first.
            let unescaped: [UInt8]?
            if field.contains(UInt8(ascii: "\\")) {
                guard let text = text(field) else { return nil }
                unescaped = Array(text.utf8)
            } else {
                unescaped = nil
            }
            let read = (unescaped.map { $0[...] } ?? field).withUnsafeBufferPointer { bytes -> Bool in
                var start = 0
                while start <= bytes.count {
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                    guard end > start, bytes[start] == UInt8(ascii: "+") || bytes[start] == UInt8(ascii: "-"),
                          let pattern = UTF8Text.string(validating: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])) else { return false }
                    parsed.append(ModuleManifest.Route(pattern, requiresLogin: bytes[start] == UInt8(ascii: "+")))
                    start = end + 1
                }
                return true
            }
            guard read else { return nil }
        }
        return ModuleManifest(id: id, version: version, summary: summary ?? "", routes: parsed, exports: declared ? [] : nil)
    }

    fileprivate static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    fileprivate static func escape(_ value: String?) -> String {
        guard let value else { return "" }
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The toolchain field (empty for a module not written in Swift): for a Swift module nearly
    /// always this den's own, which is then shared rather than made again for every line (a
    /// hundred-byte string per module at every start, compared by identity when checked). The
    /// field is compared as it stands, escaped: a toolchain with a byte that needs escaping would
    /// only miss the sharing and be read by `text` as any other.
    private static func toolchain(_ field: ArraySlice<UInt8>) -> String? {
        guard !field.isEmpty else { return nil }
        let own = ManifestIndex.ownToolchain
        var same = false
        if field.count == own.utf8.count {
            same = own.utf8.withContiguousStorageIfAvailable { mine in
                field.withUnsafeBufferPointer { memcmp(mine.baseAddress!, $0.baseAddress!, mine.count) == 0 }
            } ?? false
        }
        return same ? own : text(field)
    }

    /// The field's text, unescaped; nil for an empty field (or bytes that are not UTF-8).
    /// Byte by byte: every escape is ASCII, and no byte of a multi-byte UTF-8 sequence is. (A
    /// scalar at a time cost ≈ 0.1 ms per manifest, and a manifest's JSON escapes its quotes.)
    fileprivate static func text(_ field: ArraySlice<UInt8>) -> String? {
        guard !field.isEmpty else { return nil }
        // Through a buffer pointer: UTF8Text's generic overload runs unspecialised from here.
        guard field.contains(UInt8(ascii: "\\")) else { return field.withUnsafeBufferPointer { UTF8Text.string(validating: $0) } }
        var out: [UInt8] = []
        out.reserveCapacity(field.count)
        var escaped = false
        for byte in field {
            if escaped {
                switch byte {
                case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "r"): out.append(UInt8(ascii: "\r"))
                default: out.append(byte)
                }
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else {
                out.append(byte)
            }
        }
        return out.withUnsafeBufferPointer { UTF8Text.string(validating: $0) }
    }
}

private extension FixedWidthInteger {
    /// A decimal number from ASCII digits (an optional leading '-'), nothing else; nil when it
    /// does not fit.
    package init?(ascii field: ArraySlice<UInt8>) {
        var digits = field[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 20, !(negative && !Self.isSigned) else { return nil }
        var value: Self = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let digit = Self(byte - UInt8(ascii: "0"))
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return nil }
            value = sum
        }
        self = value
    }
}
