#if canImport(Glibc)
import Glibc
#endif

/// The names in a folder, read with `opendir`/`readdir`. Discovery lists its folders on every
/// start; FileManager's listing builds each entry's path with generic code that a fresh process
/// first has to instantiate, and costs about 1 µs more per entry (docs/PERFORMANCE.md).
package enum DirectoryListing {
    /// Every entry but `.` and `..`, in the order the file system gives them. Throws the system's
    /// reason ("Permission denied") when the folder cannot be opened.
    package static func names(atPath path: String) throws(DirectoryListingError) -> [String] {
        try names(atPath: path, keeping: { _ in true })
    }

    /// The names whose bytes `keep` accepts: a String is made only for those (a build folder
    /// holds some 250 entries, a few of them modules).
    package static func names(atPath path: String, keeping keep: (UnsafeBufferPointer<UInt8>) -> Bool) throws(DirectoryListingError) -> [String] {
        guard let directory = opendir(path) else { throw DirectoryListingError(code: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            // readdir returns nil both at the end and on an error; only an error sets errno, so
            // it is cleared before each call (the loop body may leave it set, e.g. malloc).
            errno = 0
            guard let entry = readdir(directory) else { break }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String? in
                let bytes = UnsafeBufferPointer(rebasing: raw.assumingMemoryBound(to: UInt8.self).prefix { $0 != 0 })
                guard keep(bytes) else { return nil }
                return String(decoding: bytes, as: UTF8.self)
            }
            if let name, name != "." && name != ".." { names.append(name) }
        }
        if errno != 0 { throw DirectoryListingError(code: errno) }
        return names
    }
}

package struct DirectoryListingError: Error {
    package var code: Int32
    package var reason: String { String(cString: strerror(code)) }
}
