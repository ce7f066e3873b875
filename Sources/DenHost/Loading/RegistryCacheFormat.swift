import DenKit
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The registry cache's file format: a header line, then one line per module file with tab-
/// separated fields — path, device, inode, size, modification seconds and nanoseconds, ABI
/// version, toolchain, why the file must be loaded at start, and its manifest as compact JSON.
/// Text fields escape `\`, tab, line feed and carriage return; an empty field is "none".
///
/// Not JSON: JSONDecoder spent ≈ 15 µs walking each entry, so a cache that remembers a hundred
/// files cost a millisecond and a half at every start, whatever this start needed
/// (docs/PERFORMANCE.md). Lines are split without decoding anything; a manifest is decoded only
/// when its file is installed. A line that does not parse is dropped (its file is read again).
enum RegistryCacheFormat {
    static let header = "den-module-registry 3"

    /// The entries, and how many lines were dropped; nil when the header is not this format's.
    static func parse(_ data: Data) -> (entries: [String: ManifestIndex.Entry], dropped: Int)? {
        // Contiguous bytes, cut at offsets memchr finds: `split` made an array of slices per
        // line, and a slice of `Data` is read a byte at a time by the text and integer parsers
        // (≈ 17 µs a line before; the cache holds a line per module file den has seen).
        let bytes = [UInt8](data)
        return bytes.withUnsafeBufferPointer { buffer -> (entries: [String: ManifestIndex.Entry], dropped: Int)? in
            guard let base = buffer.baseAddress else { return nil }
            /// The offset of the next `byte` in start..<end, or end.
            func next(_ byte: UInt8, from start: Int, before end: Int) -> Int {
                guard start < end, let found = memchr(base + start, Int32(byte), end - start) else { return end }
                return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            var lineEnd = next(UInt8(ascii: "\n"), from: 0, before: buffer.count)
            guard String(decoding: buffer[..<lineEnd], as: UTF8.self) == header else { return nil }
            var lines = 0
            var scan = lineEnd
            while scan < buffer.count { lines += 1; scan = next(UInt8(ascii: "\n"), from: scan + 1, before: buffer.count) }
            var entries: [String: ManifestIndex.Entry] = Dictionary(minimumCapacity: lines)
            var dropped = 0
            var fieldStarts = [Int](repeating: 0, count: fieldCount + 1) // reused: one allocation per parse
            while lineEnd < buffer.count {
                let lineStart = lineEnd + 1
                lineEnd = next(UInt8(ascii: "\n"), from: lineStart, before: buffer.count)
                guard lineEnd > lineStart else { continue } // an empty line
                // Field i is bytes[fieldStarts[i] ..< fieldStarts[i + 1] - 1]; a line with
                // another number of fields is damaged.
                var count = 1
                fieldStarts[0] = lineStart
                var tab = next(UInt8(ascii: "\t"), from: lineStart, before: lineEnd)
                while tab < lineEnd, count <= fieldCount {
                    if count < fieldCount { fieldStarts[count] = tab + 1 }
                    count += 1
                    tab = next(UInt8(ascii: "\t"), from: tab + 1, before: lineEnd)
                }
                guard count == fieldCount else { dropped += 1; continue }
                fieldStarts[fieldCount] = lineEnd + 1
                func field(_ number: Int) -> ArraySlice<UInt8> { bytes[fieldStarts[number] ..< fieldStarts[number + 1] - 1] }
                guard let path = text(field(0)), !path.isEmpty,
                      let device = UInt64(ascii: field(1)), let inode = UInt64(ascii: field(2)),
                      let size = Int64(ascii: field(3)), let seconds = Int64(ascii: field(4)),
                      let nanoseconds = Int64(ascii: field(5)) else { dropped += 1; continue }
                let abi: UInt32?
                if field(6).isEmpty { abi = nil } else if let value = UInt32(ascii: field(6)) { abi = value } else { dropped += 1; continue }
                let key = ManifestIndex.Key(device: device, inode: inode, size: size,
                                            modifiedSeconds: seconds, modifiedNanoseconds: nanoseconds)
                entries[path] = ManifestIndex.Entry(key: key, abiVersion: abi, toolchain: text(field(7)),
                                                    manifestJSON: text(field(9)), eagerBecause: text(field(8)))
            }
            return (entries, dropped)
        }
    }

    /// Path, device, inode, size, seconds, nanoseconds, ABI, toolchain, why eager, manifest.
    private static let fieldCount = 10

    static func render(_ entries: [String: ManifestIndex.Entry]) -> Data {
        var out = header + "\n"
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) {
            let key = entry.key
            let fields = [escape(path), "\(key.device)", "\(key.inode)", "\(key.size)", "\(key.modifiedSeconds)",
                          "\(key.modifiedNanoseconds)", entry.abiVersion.map { "\($0)" } ?? "", escape(entry.toolchain),
                          escape(entry.eagerBecause), escape(entry.manifestJSON)]
            out += fields.joined(separator: "\t") + "\n"
        }
        return Data(out.utf8)
    }

    private static func escape(_ value: String?) -> String {
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

    /// The field's text, unescaped; nil for an empty field (or bytes that are not UTF-8).
    /// Byte by byte: every escape is ASCII, and no byte of a multi-byte UTF-8 sequence is. (A
    /// scalar at a time cost ≈ 0.1 ms per manifest, and a manifest's JSON escapes its quotes.)
    private static func text(_ field: ArraySlice<UInt8>) -> String? {
        guard !field.isEmpty else { return nil }
        guard field.contains(UInt8(ascii: "\\")) else { return UTF8Text.string(validating: field) }
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
        return UTF8Text.string(validating: out)
    }
}

private extension FixedWidthInteger {
    /// A decimal number from ASCII digits (an optional leading '-'), nothing else; nil when it
    /// does not fit.
    init?(ascii field: ArraySlice<UInt8>) {
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
