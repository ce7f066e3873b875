#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bounds of `http.get`.
public enum HTTPLimits {
    /// Whole-request deadline when the request names none: 10 s.
    public static let defaultTimeoutMilliseconds = 10_000
    /// The longest deadline a request may ask for: 60 s.
    public static let maxTimeoutMilliseconds = 60_000
    /// Largest body accepted when the request names no limit: 5 MiB.
    public static let defaultMaxBytes = 5 << 20
    /// The largest `max_bytes` a request may ask for: 20 MiB.
    public static let maxMaxBytes = 20 << 20
}
