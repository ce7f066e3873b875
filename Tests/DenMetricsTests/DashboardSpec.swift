import DenMetrics
import Foundation
import Testing

/// docs/observability: the Grafana dashboard's queries and docs/OBSERVABILITY.md's list, held to
/// the metrics den exports (`MetricNames.all`).
@Suite("The dashboard and the docs name only metrics den exports, and the docs name them all")
struct DashboardSpec {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs")

    /// Every `den_…` name in `text`, with a histogram's _bucket, _sum and _count taken off.
    static func metricNames(in text: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: "den_[a-z_]+")
        let names = regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
        return Set(names.map { name in
            for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) && MetricNames.all.contains(String(name.dropLast(suffix.count))) {
                return String(name.dropLast(suffix.count))
            }
            return name
        })
    }

    @Test("every query in the Grafana dashboard names a metric den exports, and the dashboard uses most of them")
    func dashboardQueries() throws {
        let data = try Data(contentsOf: Self.docs.appendingPathComponent("observability/grafana-dashboard.json"))
        let dashboard = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        var expressions = panels.flatMap { ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String } }
        let variables = (dashboard["templating"] as? [String: Any])?["list"] as? [[String: Any]] ?? []
        expressions += variables.compactMap { $0["query"] as? String }
        #expect(expressions.count >= 10)
        var used = Set<String>()
        for expression in expressions {
            let names = Self.metricNames(in: expression)
            #expect(!names.isEmpty, "a query that names no den metric: \(expression)")
            for name in names { #expect(MetricNames.all.contains(name), "\(name) is not a metric den exports: \(expression)") }
            used.formUnion(names)
        }
        #expect(used == Set(MetricNames.all), "metrics the dashboard leaves out: \(Set(MetricNames.all).subtracting(used).sorted())")
    }

    @Test("docs/OBSERVABILITY.md names every metric den exports, and none it does not")
    func documented() throws {
        let text = try String(contentsOf: Self.docs.appendingPathComponent("OBSERVABILITY.md"), encoding: .utf8)
        let named = Self.metricNames(in: text)
        for name in MetricNames.all { #expect(named.contains(name), "OBSERVABILITY.md does not name \(name)") }
        for name in named { #expect(MetricNames.all.contains(name), "OBSERVABILITY.md names \(name), which den does not export") }
    }
}
