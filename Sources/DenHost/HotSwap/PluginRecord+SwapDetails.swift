import DenKit
import Foundation

extension PluginSummary {
    /// Adds what a hot swap changes (generation, load time, retained images, a refused swap).
    func withSwapDetails(_ record: PluginRecord) -> PluginSummary {
        var summary = self
        guard record.isActive else { return summary }
        summary.generation = record.generation
        // A module installed from its manifest and not opened yet has no load time (lazy loading).
        summary.loadedAt = record.isLoaded ? PluginRecord.timestamp(record.loadedAt) : nil
        summary.retainedImages = record.retainedImages
        summary.retainedBytes = record.retainedBytes
        summary.swapError = record.swapError
        return summary
    }
}

extension PluginRecord {
    /// ISO 8601 in UTC, to the second (`2026-11-23T01:02:03Z`). Formatted from `gmtime_r`:
    /// Foundation's `.iso8601` style cost a fresh `den render about` about a millisecond to set up.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
