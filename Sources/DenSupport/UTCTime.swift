import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Times in UTC, formatted from `gmtime_r`. FoundationEssentials has no `DateFormatter`, and its
/// `.iso8601` style cost a fresh `den render about` about a millisecond to set up.
package enum UTCTime {
    /// ISO 8601 to the second, the fraction cut off: `2026-11-23T01:02:03Z` for 01:02:03.9.
    package static func iso8601(_ date: Date) -> String {
        guard let parts = parts(date) else { return "" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(clock(parts)):\(two(parts.tm_sec))Z"
    }

    /// Hours and minutes: `01:02`.
    package static func hoursAndMinutes(_ date: Date) -> String {
        parts(date).map(clock) ?? ""
    }

    private static func parts(_ date: Date) -> tm? {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        return gmtime_r(&seconds, &parts) == nil ? nil : parts
    }

    private static func clock(_ parts: tm) -> String { "\(two(parts.tm_hour)):\(two(parts.tm_min))" }

    private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
