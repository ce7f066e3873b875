import Testing
@testable import JogsModule

@Suite("Jog form rules")
struct JogValidatorTests {
    let validator = JogValidator(today: day("2026-03-15"))

    @Test("a valid form becomes a jog input in metres and seconds")
    func valid() {
        let result = validator.validate(JogDraft(date: "2026-03-14", distance: "5,25", duration: "28:30"))
        #expect(result == .success(JogInput(date: day("2026-03-14"), distanceMetres: 5250, durationSeconds: 1710)))
    }

    @Test("today is allowed; tomorrow is the future and refused with today's date in the message")
    func future() {
        #expect(throws: Never.self) { try validator.validate(JogDraft(date: "2026-03-15", distance: "5", duration: "30:00")).get() }
        let errors = validator.validate(JogDraft(date: "2026-03-16", distance: "5", duration: "30:00")).failure
        #expect(errors?.date == "2026-03-16 is in the future; a jog can only be logged on or before today, 2026-03-15.")
        #expect(errors?.distance == nil)
        #expect(errors?.duration == nil)
    }

    @Test("a date that is not a real day says so", arguments: [
        ("2026-02-30", "'2026-02-30' is not a day of the calendar; check the month and the day."),
        ("2025-13-01", "'2025-13-01' is not a day of the calendar; check the month and the day."),
        ("15.03.2026", "'15.03.2026' is not a date: type YYYY-MM-DD, e.g. 2026-01-31."),
        ("2026-3-5", "'2026-3-5' is not a date: type YYYY-MM-DD, e.g. 2026-01-31."),
        ("yesterday", "'yesterday' is not a date: type YYYY-MM-DD, e.g. 2026-01-31."),
        ("", "Enter the date as YYYY-MM-DD, e.g. 2026-01-31."),
        ("1899-12-31", "1899-12-31 is before 1900-01-01; check the year."),
    ])
    func badDates(text: String, message: String) {
        #expect(validator.validate(JogDraft(date: text, distance: "5", duration: "30:00")).failure?.date == message)
    }

    @Test("2024-02-29 exists (a leap year); 2100-02-29 does not")
    func leapDays() {
        #expect(Day("2024-02-29") != nil)
        #expect(Day("2100-02-29") == nil)
        #expect(Day("2000-02-29") != nil)
    }

    @Test("a distance and a duration that make no jog together are refused, with the speed they make", arguments: [
        ("1000", "0:01", "That is 3600000 km/h on average"), ("0.001", "48:00:00", "That is under 0.1 km/h on average"),
        ("10", "10:00", "That is 60 km/h on average"), ("1", "1:30:00", "That is 0.7 km/h on average"),
    ])
    func impossibleSpeed(distance: String, duration: String, start: String) {
        let errors = validator.validate(JogDraft(date: "2026-03-14", distance: distance, duration: duration)).failure
        #expect(errors?.duration?.hasPrefix(start + "; a jog is 1 to 30 km/h.") == true, "\(String(describing: errors?.duration))")
        #expect(errors?.distance == nil)
    }

    @Test("the speed bounds themselves are allowed: 30 km/h and 1 km/h", arguments: [("10", "20:00"), ("1", "1:00:00"), ("42.195", "2:01:09")])
    func boundarySpeeds(distance: String, duration: String) {
        #expect(throws: Never.self) { try validator.validate(JogDraft(date: "2026-03-14", distance: distance, duration: duration)).get() }
    }

    @Test("every problem is reported at once, one message per field")
    func allAtOnce() {
        let errors = validator.validate(JogDraft(date: "soon", distance: "far", duration: "1:75")).failure
        #expect(errors?.date == "'soon' is not a date: type YYYY-MM-DD, e.g. 2026-01-31.")
        #expect(errors?.distance == "'far' is not a distance: type kilometres as a number, e.g. 5 or 5.25.")
        #expect(errors?.duration == "'1:75' has 75 seconds; seconds go from 00 to 59 (75 seconds is 1:15).")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
