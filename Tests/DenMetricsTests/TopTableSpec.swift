import DenMetrics
import Testing

@Suite("den top's table: rates, quantiles and sorting from two scrapes")
struct TopTableSpec {
    static func scrape(calls: Double, buckets: [(String, Double)], module: String = "jogs", hosting: String = "in-process",
                       restarts: Double? = nil, memory: Double? = nil) -> [MetricSample] {
        let labels = ["module": module, "version": "1.0.0", "hosting": hosting, "kind": "handle", "route": module]
        var samples = [MetricSample(name: "den_module_calls_total", labels: labels, value: calls)]
        for (bound, count) in buckets {
            samples.append(MetricSample(name: "den_module_call_duration_seconds_bucket", labels: labels.merging(["le": bound]) { $1 }, value: count))
        }
        if let restarts { samples.append(MetricSample(name: "den_module_restarts_total", labels: ["module": module, "version": "1.0.0"], value: restarts)) }
        if let memory { samples.append(MetricSample(name: "den_module_worker_resident_memory_bytes", labels: ["module": module, "version": "1.0.0"], value: memory)) }
        return samples
    }

    @Test("quantiles interpolate within the bucket the rank falls in, as histogram_quantile does")
    func quantiles() {
        let buckets: [(Double, Double)] = [(0.001, 50), (0.01, 90), (0.1, 100), (.infinity, 100)]
        #expect(TopTable.quantile(0.5, buckets) == 0.001)
        #expect(abs((TopTable.quantile(0.7, buckets) ?? 0) - 0.0055) < 1e-9)
        #expect(abs((TopTable.quantile(0.99, buckets) ?? 0) - 0.091) < 1e-9)
        #expect(TopTable.quantile(0.5, [(0.001, 0), (.infinity, 0)]) == nil, "no calls, no quantile")
        #expect(TopTable.quantile(0.99, [(0.5, 1), (.infinity, 10)]) == 0.5, "past the last bound: the last bound")
    }

    @Test("calls per second and quantiles come from what happened between the scrapes only")
    func deltas() throws {
        let before = Self.scrape(calls: 100, buckets: [("0.001", 100), ("0.01", 100), ("+Inf", 100)])
        let after = Self.scrape(calls: 300, buckets: [("0.001", 100), ("0.01", 300), ("+Inf", 300)], restarts: 2, memory: 30_000_000)
        let row = try #require(TopTable(before: before, after: after, interval: .seconds(2)).rows.first)
        #expect(row.callsPerSecond == 100)
        #expect((row.p50 ?? 0) > 1 && (row.p50 ?? 0) <= 10, "the new calls took 1–10 ms: \(String(describing: row.p50))")
        #expect(row.restarts == 2)
        #expect(row.memory == 30_000_000)
        let idle = try #require(TopTable(before: after, after: after, interval: .seconds(1)).rows.first)
        #expect(idle.callsPerSecond == 0)
        #expect(idle.p50 == nil)
    }

    @Test("rows sort by the chosen column, and every line fits in 80 columns")
    func sortingAndWidth() {
        let before = Self.scrape(calls: 0, buckets: []) + Self.scrape(calls: 0, buckets: [], module: "a-module-with-a-very-long-name")
        let after = Self.scrape(calls: 10, buckets: [], memory: 1_000_000) + Self.scrape(calls: 50, buckets: [], module: "a-module-with-a-very-long-name", memory: 9_000_000)
        var table = TopTable(before: before, after: after, interval: .seconds(1))
        #expect(table.rows.map(\.module) == ["a-module-with-a-very-long-name", "jogs"])
        table.sort(by: .name)
        #expect(table.rows.map(\.module) == ["a-module-with-a-very-long-name", "jogs"])
        table.sort(by: .memory)
        #expect(table.rows.first?.module == "a-module-with-a-very-long-name")
        #expect(table.lines().allSatisfy { $0.count <= 80 }, "\(table.lines())")
        #expect(table.lines().first?.hasPrefix("MODULE") == true)
        #expect(TopTable(before: [], after: [], interval: .seconds(1)).lines().last == "(no module has been called yet)")
    }
}

@Suite("Reading Prometheus text back")
struct MetricsTextSpec {
    @Test("samples with and without labels, escapes, +Inf; comments and broken lines are skipped")
    func parses() {
        let text = """
        # HELP den_requests_total Requests.
        # TYPE den_requests_total counter
        den_requests_total{status="200"} 12
        den_live_sessions 3
        den_module_call_duration_seconds_bucket{module="a",route="say \\"hi\\"\\\\there",le="+Inf"} 4
        broken{module="a" 1
        den_x{a="1"} notanumber
        """
        let samples = MetricsText.parse(text)
        #expect(samples == [
            MetricSample(name: "den_requests_total", labels: ["status": "200"], value: 12),
            MetricSample(name: "den_live_sessions", labels: [:], value: 3),
            MetricSample(name: "den_module_call_duration_seconds_bucket", labels: ["module": "a", "route": "say \"hi\"\\there", "le": "+Inf"], value: 4),
        ])
    }
}
