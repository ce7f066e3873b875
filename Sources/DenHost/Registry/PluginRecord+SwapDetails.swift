import DenKit
import DenSupport
import FoundationEssentials

extension PluginSummary {
    /// Adds what a hot swap changes (generation, load time, retained images, a refused swap),
    /// those of `fields`.
    package mutating func addSwapDetails(_ record: PluginRecord, _ fields: Fields) {
        guard record.isActive else { return }
        if fields.contains(.generation) { generation = record.generation }
        // A module installed from its manifest and not opened yet has no load time (lazy loading).
        if fields.contains(.loadedAt), record.isLoaded { loadedAt = PluginRecord.timestamp(record.loadedAt) }
        if fields.contains(.retainedImages) { retainedImages = record.retainedImages }
        if fields.contains(.retainedBytes) { retainedBytes = record.retainedBytes }
        if fields.contains(.swapError) { swapError = record.swapError }
        if fields.contains(.hosting) { hosting = record.hosting }
    }
}

extension PluginRecord {
    /// ISO 8601 in UTC, to the second (`2026-11-23T01:02:03Z`).
    package static func timestamp(_ date: Date) -> String { UTCTime.iso8601(date) }
}
