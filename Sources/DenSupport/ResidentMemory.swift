#if canImport(Glibc)
import Glibc
#endif

/// A process's resident memory, from `/proc/<pid>/statm` (Linux); 0 where it cannot be read.
package enum ResidentMemory {
    /// This process's (`pid` nil) or another's: a worker's, for its metrics.
    package static func bytes(of pid: Int32? = nil) -> Int64 {
        let path = pid.map { "/proc/\($0)/statm" } ?? "/proc/self/statm"
        guard let bytes = FileBytes.read(atPath: path, limit: 4096) else { return 0 }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int64(fields[1]) else { return 0 }
        return pages * Int64(sysconf(Int32(_SC_PAGESIZE)))
    }
}
