/// Groups jogs by ISO 8601 week (Monday to Sunday; a week belongs to the year of its Thursday,
/// so the days around New Year fall in the right week) and sums each week.
enum WeeklyReport {
    /// Newest week first; weeks without jogs are left out.
    static func summarize(_ jogs: [Jog]) -> [WeekSummary] {
        Dictionary(grouping: jogs, by: \.date.isoWeek)
            .map { WeekSummary(week: $0.key, totals: JogTotals($0.value)) }
            .sorted { $1.week < $0.week }
    }
}
