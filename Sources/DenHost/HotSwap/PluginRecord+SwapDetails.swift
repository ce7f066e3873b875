import DenKit
import Foundation

extension PluginSummary {
    /// Adds what a hot swap changes (generation, load time, retained images, a refused swap).
    func withSwapDetails(_ record: PluginRecord) -> PluginSummary {
        var summary = self
        guard record.isActive else { return summary }
        summary.generation = record.generation
        summary.loadedAt = PluginRecord.timestamp(record.loadedAt)
        summary.retainedImages = record.retainedImages
        summary.retainedBytes = record.retainedBytes
        summary.swapError = record.swapError
        return summary
    }
}

extension PluginRecord {
    /// ISO 8601 in UTC, to the second.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
