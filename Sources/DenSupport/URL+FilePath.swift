import DenKit
import FoundationEssentials

/// A file URL's path and name as `path` and `lastPathComponent` give them, without their first-use
/// cost: FoundationEssentials builds a `Set<UInt8>` in both, and the runtime looks that type up by
/// its mangled name the first time in a process (≈ 220,000 instructions, a few per cent of a
/// `den render`; docs/PERFORMANCE.md). Used on the start path; `URLFilePathSpec` holds them to
/// `path` and `lastPathComponent`.
extension URL {
    /// `path`: the percent-encoded path decoded by bytes, without trailing slashes (but "/").
    package var filePath: String {
        guard var path = decodedPath else { return self.path }
        while path.utf8.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// The path with its escapes decoded and its slashes as they are; nil if it does not decode
    /// (a file URL escapes every '%' it holds, so it always does).
    private var decodedPath: String? {
        PercentDecoding.decode(path(percentEncoded: true))
    }

    /// `lastPathComponent`: what follows the last '/' of `filePath` ("/" for the root).
    package var fileName: String {
        let path = filePath
        guard path != "/", let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// `appendingPathComponent(name)` for a file in this folder.
    package func appendingFileName(_ name: String) -> URL {
        guard let folder = decodedPath else { return appendingPathComponent(name) }
        return URL(fileURLWithPath: folder + (folder.hasSuffix("/") ? "" : "/") + name, isDirectory: false)
    }
}
