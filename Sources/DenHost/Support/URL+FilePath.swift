import DenKit
import FoundationEssentials

/// A file URL's path and name as `path` and `lastPathComponent` give them, without their first-use
/// cost: FoundationEssentials builds a `Set<UInt8>` in both, and the runtime looks that type up by
/// its mangled name the first time in a process (≈ 220,000 instructions, a few per cent of a
/// `den render`; docs/PERFORMANCE.md). Used on the start path; `URLFilePathSpec` holds them to
/// `path` and `lastPathComponent`.
extension URL {
    /// `path`: the percent-encoded path decoded by bytes, without trailing slashes (but "/").
    var filePath: String {
        guard var bytes = decodedPathBytes else { return path }
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The path's bytes with its escapes decoded and its slashes as they are; nil for an escape
    /// that is not two hex digits (a file URL never holds one).
    private var decodedPathBytes: [UInt8]? {
        let encoded = path(percentEncoded: true)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.utf8.count)
        var iterator = encoded.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            // A file URL escapes every '%' it holds, so an escape is always two hex digits.
            guard let high = iterator.next(), let low = iterator.next(),
                  let value = HexDigit.value(high).flatMap({ h in HexDigit.value(low).map { h << 4 | $0 } }) else {
                return nil
            }
            bytes.append(value)
        }
        return bytes
    }

    /// `lastPathComponent`: what follows the last '/' of `filePath` ("/" for the root).
    var fileName: String {
        let path = filePath
        guard path != "/", let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// `appendingPathComponent(name)` for a file in this folder.
    func appendingFileName(_ name: String) -> URL {
        guard let folder = decodedPathBytes else { return appendingPathComponent(name) }
        let separator = folder.last == UInt8(ascii: "/") ? "" : "/"
        return URL(fileURLWithPath: String(decoding: folder, as: UTF8.self) + separator + name, isDirectory: false)
    }
}
