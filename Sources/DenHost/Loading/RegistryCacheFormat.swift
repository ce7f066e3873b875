import DenKit
import FoundationEssentials

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
        // Contiguous bytes: a slice of `Data` is read a byte at a time by `String(validating:)`
        // and the integer parsers, which cost ≈ 9 µs a line.
        let bytes = [UInt8](data)
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard let first = lines.first, String(decoding: first, as: UTF8.self) == header else { return nil }
        var entries: [String: ManifestIndex.Entry] = [:]
        var dropped = 0
        for line in lines.dropFirst() {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 10, let path = text(fields[0]), !path.isEmpty,
                  let device = UInt64(ascii: fields[1]), let inode = UInt64(ascii: fields[2]),
                  let size = Int64(ascii: fields[3]), let seconds = Int64(ascii: fields[4]),
                  let nanoseconds = Int64(ascii: fields[5]) else { dropped += 1; continue }
            let abi: UInt32?
            if fields[6].isEmpty { abi = nil } else if let value = UInt32(ascii: fields[6]) { abi = value } else { dropped += 1; continue }
            let key = ManifestIndex.Key(device: device, inode: inode, size: size,
                                        modifiedSeconds: seconds, modifiedNanoseconds: nanoseconds)
            entries[path] = ManifestIndex.Entry(key: key, abiVersion: abi, toolchain: text(fields[7]),
                                                manifestJSON: text(fields[9]), eagerBecause: text(fields[8]))
        }
        return (entries, dropped)
    }

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
