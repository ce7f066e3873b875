import DenSupport
import FoundationEssentials

/// Durations in debug logs: milliseconds with two decimals (a load takes 0.1–10 ms).
enum PluginLoadTiming {
    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return NumberText.fixed(Double(seconds) * 1000 + Double(attoseconds) / 1e15, places: 2) + " ms"
    }
}
