import DenKit
import FoundationEssentials

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
    /// ISO 8601 in UTC, to the second (`2026-11-23T01:02:03Z`).
    static func timestamp(_ date: Date) -> String { UTCTime.iso8601(date) }
}
