import Testing
@testable import JogsModule

@Suite("Days and ISO weeks")
struct DayTests {
    @Test("reads exactly YYYY-MM-DD and writes it back")
    func parsing() {
        #expect(Day("2026-01-05")?.description == "2026-01-05")
        #expect(Day("0001-01-01")?.description == "0001-01-01")
        for text in ["2026-1-05", "2026-01-5", "26-01-05", "2026/01/05", "2026-01-05T00:00", " 2026-01-05", "２０２６-01-05", "0000-01-01"] {
            #expect(Day(text) == nil, "\(text)")
        }
    }

    @Test("day numbers count from 1970-01-01 and come back to the same day")
    func dayNumbers() {
        #expect(day("1970-01-01").dayNumber == 0)
        #expect(day("2000-03-01").dayNumber == 11_017)
        #expect(day("1969-12-31").dayNumber == -1)
        for text in ["0001-01-01", "1900-02-28", "2024-02-29", "2026-12-31", "9999-12-31"] {
            #expect(Day(dayNumber: day(text).dayNumber) == day(text))
        }
        #expect(day("2026-12-31").adding(days: 1) == day("2027-01-01"))
        #expect(day("2024-02-28").adding(days: 1) == day("2024-02-29"))
        #expect(day("9999-12-31").adding(days: 1) == nil)
    }

    @Test("ISO weekdays: 1970-01-01 was a Thursday, 2026-03-15 a Sunday")
    func weekdays() {
        #expect(day("1970-01-01").isoWeekday == 4)
        #expect(day("2026-03-15").isoWeekday == 7)
        #expect(day("2026-03-16").isoWeekday == 1)
        #expect(day("1969-12-29").isoWeekday == 1)
    }

    @Test("a week belongs to the year of its Thursday, across New Year", arguments: [
        ("2025-12-28", "2025-W52"),
        ("2025-12-29", "2026-W01"), // Monday before New Year: already week 1 of 2026
        ("2026-01-01", "2026-W01"),
        ("2026-01-04", "2026-W01"),
        ("2026-01-05", "2026-W02"),
        ("2026-12-31", "2026-W53"), // 2026 starts on a Thursday: it has 53 weeks
        ("2027-01-03", "2026-W53"), // Sunday after New Year: still the old year's last week
        ("2027-01-04", "2027-W01"),
        ("2021-01-03", "2020-W53"),
        ("2024-12-30", "2025-W01"),
    ])
    func isoWeeks(date: String, week: String) {
        #expect(day(date).isoWeek.description == week)
    }

    @Test("a week knows its Monday and Sunday")
    func weekBounds() {
        let week = day("2026-01-01").isoWeek
        #expect(week.monday == day("2025-12-29"))
        #expect(week.sunday == day("2026-01-04"))
        #expect(day("2027-01-02").isoWeek.monday == day("2026-12-28"))
        #expect(ISOWeek(year: 2026, week: 2) > ISOWeek(year: 2026, week: 1))
        #expect(ISOWeek(year: 2026, week: 1) > ISOWeek(year: 2025, week: 52))
    }
}
