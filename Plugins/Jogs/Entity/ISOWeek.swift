/// An ISO 8601 week: `2026-W01` runs from Monday 2025-12-29 to Sunday 2026-01-04.
struct ISOWeek: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The week-numbering year: the year of the week's Thursday, not always the calendar year.
    let year: Int
    /// 1...53.
    let week: Int

    var description: String {
        "\(year)-W\(week < 10 ? "0" : "")\(week)"
    }

    /// The week's Monday.
    var monday: Day? {
        // January 4th is always in week 1.
        guard let fourth = Day(year: year, month: 1, day: 4) else { return nil }
        return Day(dayNumber: fourth.dayNumber - (fourth.isoWeekday - 1) + (week - 1) * 7)
    }

    /// The week's Sunday.
    var sunday: Day? {
        monday?.adding(days: 6)
    }

    static func < (lhs: ISOWeek, rhs: ISOWeek) -> Bool {
        (lhs.year, lhs.week) < (rhs.year, rhs.week)
    }
}
