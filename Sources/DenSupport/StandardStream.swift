#if canImport(Glibc)
import Glibc
#endif

/// Standard output or error, written straight to the descriptor, unbuffered: FoundationEssentials
/// has no `FileHandle`, and a prompt or a notice must appear before the next read.
package enum StandardStream: Int32, Sendable {
    case output = 1
    case error = 2

    /// Writes all of `text`, retrying short writes and interrupted calls; a closed stream drops it.
    package func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(rawValue, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { return }
        }
    }
}
