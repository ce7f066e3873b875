#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A small file's bytes read with `open`/`read`: FileManager's first use costs a fresh process
/// ≈ 50,000 instructions (its singleton, then generic reading code), and `den render` reads
/// only the registry cache this way (docs/PERFORMANCE.md).
package enum FileBytes {
    /// The whole file; nil when it cannot be opened or read, or is not a regular file, or is
    /// larger than `limit` bytes.
    package static func read(atPath path: String, limit: Int = 64 << 20) -> [UInt8]? {
        // O_NONBLOCK: a FIFO at the path must not hang the start before fstat refuses it.
        var descriptor: Int32
        repeat { descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= limit else { return nil }
        // One byte of room past the size: the read that finds the end needs no more room, and
        // a file that grew meanwhile is read on, a chunk at a time, up to the limit.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                guard filled <= limit else { return nil }
                bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count / 2)))
            }
            let count = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= limit else { return nil }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// `read(2)`: the name `read` is this type's own here.
    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Musl.read(descriptor, buffer, count)
        #endif
    }
}
