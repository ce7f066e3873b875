import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A file's identity as the plugin cache names copies (device, inode, size, modification
/// time): equal stamps mean the version already loaded, so there is nothing to swap. The
/// registry cache keys its entries with the same stamp (`ManifestIndex.Key`).
///
/// The change time rides along for the signature cache (`SignatureIndex.Stamp`), which a start
/// then judges from this one `stat`; it is no part of the identity (a `chmod` is no new version).
package struct FileStamp: Hashable, Sendable {
    package let device: UInt64
    package let inode: UInt64
    package let size: Int64
    package let seconds: Int
    package let nanoseconds: Int
    /// A plain file (not a folder, device or socket).
    package let isRegularFile: Bool
    package let changeSeconds: Int
    package let changeNanoseconds: Int

    package init?(_ path: String) {
        var info = stat()
        // `withCString`, not the implicit conversion: that copies the path into a new array for
        // every call, and a start stats every module file.
        guard path.withCString({ stat($0, &info) }) == 0 else { return nil }
        self.init(info)
    }

    package init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
        changeSeconds = info.st_ctim.tv_sec
        changeNanoseconds = info.st_ctim.tv_nsec
    }

    package static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size && a.seconds == b.seconds
            && a.nanoseconds == b.nanoseconds && a.isRegularFile == b.isRegularFile
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(inode)
        hasher.combine(size)
        hasher.combine(nanoseconds)
    }
}
