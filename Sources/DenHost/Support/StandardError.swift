#if canImport(Glibc)
import Glibc
#endif

/// Writes to standard error without Foundation's `FileHandle` (FoundationEssentials has none).
public enum StandardError {
    /// Writes all of `text`, retrying short writes and interrupted calls; a closed stream drops it.
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { return }
        }
    }
}
