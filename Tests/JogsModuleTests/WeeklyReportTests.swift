import Testing
@testable import JogsModule

@Suite("Weekly report")
struct WeeklyReportTests {
    /// Four jogs around New Year 2026 (hand-computed figures in each test).
    let jogs = [
        jog(1, "2025-12-28", metres: 5000, seconds: 1800),    // Sunday: 2025-W52
        jog(2, "2025-12-29", metres: 10_000, seconds: 3000),  // Monday: 2026-W01
        jog(3, "2026-01-04", metres: 5250, seconds: 1710),    // Sunday: 2026-W01
        jog(4, "2026-01-05", metres: 21_100, seconds: 6330),  // Monday: 2026-W02
    ]

    @Test("groups by ISO week across the year boundary, newest week first")
    func grouping() {
        let weeks = WeeklyReport.summarize(jogs)
        #expect(weeks.map(\.week.description) == ["2026-W02", "2026-W01", "2025-W52"])
        #expect(weeks.map(\.totals.count) == [1, 2, 1])
        #expect(weeks.map(\.totals.distanceMetres) == [21_100, 15_250, 5000])
    }

    @Test("each row: week, its days, jogs, distance, average speed and pace")
    func rows() {
        let rows = WeeklyReport.summarize(jogs).map(JogReportPresenter.row)
        // W01: 15.25 km in 4710 s → 11.7 km/h, 5:09 min/km. W52: 5 km in 30:00 → 10.0 km/h, 6:00.
        #expect(rows == [
            ["2026-W02", "2026-01-05 to 2026-01-11", "1", "21.1 km", "12.0 km/h", "5:00 min/km"],
            ["2026-W01", "2025-12-29 to 2026-01-04", "2", "15.25 km", "11.7 km/h", "5:09 min/km"],
            ["2025-W52", "2025-12-22 to 2025-12-28", "1", "5 km", "10.0 km/h", "6:00 min/km"],
        ])
    }

    @Test("weeks without jogs are left out; no jogs, no weeks")
    func gaps() {
        let weeks = WeeklyReport.summarize([jog(1, "2026-01-05", metres: 1000, seconds: 300),
                                            jog(2, "2026-02-16", metres: 1000, seconds: 300)])
        #expect(weeks.map(\.week.description) == ["2026-W08", "2026-W02"])
        #expect(WeeklyReport.summarize([]).isEmpty)
    }
}
