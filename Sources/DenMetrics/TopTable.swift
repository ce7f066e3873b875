import FoundationEssentials

/// `den top`'s table: one row per module from two scrapes `interval` apart — calls per second,
/// p50 and p99 of the calls in between, errors, restarts and worker memory — within 80 columns.
package struct TopTable: Sendable {
    package struct Row: Sendable, Equatable {
        package var module: String
        package var version: String
        package var hosting: String
        package var callsPerSecond: Double
        /// Milliseconds; nil when the module was not called between the two scrapes.
        package var p50: Double?
        package var p99: Double?
        package var errors: Double
        package var restarts: Double
        /// Bytes of its worker; nil in den's process.
        package var memory: Double?
    }

    package enum Sort: String, Sendable, CaseIterable {
        case calls, p99, errors, memory, name

        /// The key `den top` takes for it.
        package var key: Character {
            switch self {
            case .calls: "c"
            case .p99: "p"
            case .errors: "e"
            case .memory: "m"
            case .name: "n"
            }
        }
    }

    package var rows: [Row]

    package init(before: [MetricSample], after: [MetricSample], interval: Duration) {
        let seconds = max(Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18, 0.001)
        struct Key: Hashable { var module: String; var version: String }
        func key(_ sample: MetricSample) -> Key { Key(module: sample.labels["module"] ?? "", version: sample.labels["version"] ?? "") }
        func sum(_ samples: [MetricSample], _ name: String) -> [Key: Double] {
            samples.filter { $0.name == name }.reduce(into: [:]) { $0[key($1), default: 0] += $1.value }
        }
        /// Bucket counts by upper bound, summed over a module's routes and kinds.
        func buckets(_ samples: [MetricSample]) -> [Key: [Double: Double]] {
            samples.filter { $0.name == "den_module_call_duration_seconds_bucket" }.reduce(into: [:]) { result, sample in
                guard let bound = sample.labels["le"].flatMap({ $0 == "+Inf" ? Double.infinity : Double($0) }) else { return }
                result[key(sample), default: [:]][bound, default: 0] += sample.value
            }
        }
        let callsBefore = sum(before, "den_module_calls_total"), callsAfter = sum(after, "den_module_calls_total")
        let errors = sum(after, "den_module_call_errors_total"), restarts = sum(after, "den_module_restarts_total")
        let memory = sum(after, "den_module_worker_resident_memory_bytes")
        let bucketsBefore = buckets(before), bucketsAfter = buckets(after)
        var hosting: [Key: String] = [:]
        for sample in after where sample.name == "den_module_calls_total" { hosting[key(sample)] = sample.labels["hosting"] }
        let keys = Set(callsAfter.keys).union(restarts.keys)
        rows = keys.map { key in
            let delta = (bucketsAfter[key] ?? [:]).map { ($0.key, $0.value - (bucketsBefore[key]?[$0.key] ?? 0)) }.sorted { $0.0 < $1.0 }
            return Row(module: key.module, version: key.version, hosting: hosting[key] ?? "isolated",
                       callsPerSecond: max(0, (callsAfter[key] ?? 0) - (callsBefore[key] ?? 0)) / seconds,
                       p50: Self.quantile(0.5, delta).map { $0 * 1000 }, p99: Self.quantile(0.99, delta).map { $0 * 1000 },
                       errors: errors[key] ?? 0, restarts: restarts[key] ?? 0, memory: memory[key])
        }
        sort(by: .calls)
    }

    package mutating func sort(by order: Sort) {
        rows.sort { a, b in
            let ordered: Bool? = switch order {
            case .calls: a.callsPerSecond == b.callsPerSecond ? nil : a.callsPerSecond > b.callsPerSecond
            case .p99: a.p99 == b.p99 ? nil : (a.p99 ?? -1) > (b.p99 ?? -1)
            case .errors: a.errors == b.errors ? nil : a.errors > b.errors
            case .memory: a.memory == b.memory ? nil : (a.memory ?? -1) > (b.memory ?? -1)
            case .name: nil
            }
            return ordered ?? ((a.module, a.version) < (b.module, b.version))
        }
    }

    /// Prometheus's histogram_quantile: linear within the bucket the rank falls in; nil without
    /// observations. `buckets` are (upper bound, cumulative count), sorted, +Inf last.
    package static func quantile(_ q: Double, _ buckets: [(Double, Double)]) -> Double? {
        guard let total = buckets.last?.1, total > 0 else { return nil }
        let rank = q * total
        var lowerBound = 0.0, lowerCount = 0.0
        for (bound, count) in buckets {
            if count >= rank {
                // The +Inf bucket has no upper edge: the last finite bound is as far as it goes.
                if bound == .infinity { return lowerBound }
                let inBucket = count - lowerCount
                return inBucket <= 0 ? bound : lowerBound + (bound - lowerBound) * (rank - lowerCount) / inBucket
            }
            lowerBound = bound
            lowerCount = count
        }
        return lowerBound
    }

    /// The table as text lines of at most 80 columns.
    package func lines() -> [String] {
        var lines = [Self.pad("MODULE", 22) + Self.padLeft("MODE", 4) + Self.padLeft("CALLS/S", 9) + Self.padLeft("P50 ms", 8)
                     + Self.padLeft("P99 ms", 8) + Self.padLeft("ERRORS", 8) + Self.padLeft("RESTARTS", 9) + Self.padLeft("MEMORY", 10)]
        for row in rows {
            let name = Self.pad(String("\(row.module) \(row.version)".prefix(21)), 22)
            lines.append(name + Self.padLeft(row.hosting == "isolated" ? "iso" : "in", 4)
                         + Self.padLeft(Self.number(row.callsPerSecond, places: 1), 9)
                         + Self.padLeft(row.p50.map { Self.number($0, places: 2) } ?? "-", 8)
                         + Self.padLeft(row.p99.map { Self.number($0, places: 2) } ?? "-", 8)
                         + Self.padLeft(Self.number(row.errors, places: 0), 8)
                         + Self.padLeft(Self.number(row.restarts, places: 0), 9)
                         + Self.padLeft(row.memory.map(Self.bytes) ?? "-", 10))
        }
        if rows.isEmpty { lines.append("(no module has been called yet)") }
        return lines
    }

    static func number(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "-" }
        if places == 0 { return String(Int(value.rounded())) }
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        let whole = scaled / scale, fraction = abs(scaled % scale)
        let digits = String(fraction)
        let sign = scaled < 0 && whole == 0 ? "-" : ""
        return "\(sign)\(whole).\(String(repeating: "0", count: places - digits.count))\(digits)"
    }

    static func bytes(_ value: Double) -> String {
        value >= 1_048_576 ? number(value / 1_048_576, places: 1) + " MB" : number(value / 1024, places: 0) + " KB"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
