import DenHost
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// This process's resident memory, from `/proc/self/statm` (Linux); 0 where it cannot be read.
package enum ResidentMemory {
    package static func bytes() -> Int64 {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int64(fields[1]) else { return 0 }
        return pages * Int64(sysconf(Int32(_SC_PAGESIZE)))
    }
}
