#if canImport(Glibc)
import Glibc
#endif

/// How many connections `den serve` may hold open: every connection is a file descriptor, and a
/// process at its descriptor limit can accept nobody (the EMFILE that starved every client).
package enum DescriptorBudget {
    /// Descriptors kept for everything but connections: plugins, storage, logs, the watcher,
    /// and the connections that are being answered 503 on their way out.
    package static let reserved = 256

    /// Raises the soft RLIMIT_NOFILE to the hard limit (allowed without privileges) and returns
    /// the soft limit now in force; nil when the limit cannot be read.
    @discardableResult
    package static func raiseSoftLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// The connection cap for a soft limit: what was asked, but never so many that den runs
    /// out of descriptors (at least 1).
    package static func cap(asked: Int, softLimit: Int?) -> (cap: Int, lowered: Bool) {
        guard let softLimit else { return (asked, false) }
        let room = max(1, softLimit - reserved)
        return asked > room ? (room, true) : (asked, false)
    }
}
