import Testing
@testable import JogsModule

@Suite("Duration field: h:mm:ss or mm:ss")
struct DurationParserTests {
    @Test("accepts h:mm:ss and mm:ss and gives whole seconds", arguments: [
        ("45:30", 45 * 60 + 30),
        ("1:02:03", 3600 + 2 * 60 + 3),
        ("0:59", 59),
        ("00:01", 1),
        ("75:00", 75 * 60),          // minutes may pass 59 without hours
        ("10:00:00", 36_000),
        ("48:00:00", 48 * 3600),      // the limit itself
        (" 28:30 ", 28 * 60 + 30),    // spaces around are ignored
    ])
    func accepted(text: String, seconds: Int) {
        #expect(DurationParser.parse(text) == .success(seconds))
    }

    @Test("refuses what is not a duration, saying what to type", arguments: [
        ("", "Enter the duration as h:mm:ss or mm:ss, e.g. 45:30 or 1:02:03."),
        ("   ", "Enter the duration as h:mm:ss or mm:ss, e.g. 45:30 or 1:02:03."),
        ("abc", "'abc' is not a duration: type h:mm:ss or mm:ss, e.g. 45:30 or 1:02:03."),
        ("45", "'45' is not a duration: type h:mm:ss or mm:ss, e.g. 45:30 or 1:02:03."),
        ("1:2:3:4", "'1:2:3:4' is not a duration: type h:mm:ss or mm:ss, e.g. 45:30 or 1:02:03."),
        ("-5:00", "'-5:00' is not a duration: type h:mm:ss or mm:ss, e.g. 45:30 or 1:02:03."),
        ("1:30.5", "'1:30.5' is not a duration: type h:mm:ss or mm:ss, e.g. 45:30 or 1:02:03."),
        (":30", "':30' is not a duration: type h:mm:ss or mm:ss, e.g. 45:30 or 1:02:03."),
    ])
    func notADuration(text: String, message: String) {
        #expect(DurationParser.parse(text).failureMessage == message)
    }

    @Test("refuses 75 seconds or minutes and says what was probably meant")
    func outOfRange() {
        #expect(DurationParser.parse("1:75").failureMessage
                == "'1:75' has 75 seconds; seconds go from 00 to 59 (75 seconds is 1:15).")
        #expect(DurationParser.parse("1:75:00").failureMessage
                == "'1:75:00' has 75 minutes; minutes go from 00 to 59 (75 minutes is 1:15:00).")
        #expect(DurationParser.parse("2:60").failureMessage
                == "'2:60' has 60 seconds; seconds go from 00 to 59 (60 seconds is 1:00).")
    }

    @Test("one-digit seconds or minutes are refused rather than guessed at")
    func twoDigits() {
        #expect(DurationParser.parse("1:5").failureMessage == "'1:5': write the seconds with two digits, e.g. 45:05.")
        #expect(DurationParser.parse("1:5:00").failureMessage == "'1:5:00': write the minutes with two digits, e.g. 1:05:00.")
    }

    @Test("zero and more than 48 hours are refused", arguments: [
        ("0:00", "'0:00': the duration must be more than 0."),
        ("0:00:00", "'0:00:00': the duration must be more than 0."),
        ("48:00:01", "'48:00:01' is more than the 48 hours a jog can last; check the duration."),
        ("2881:00", "'2881:00' is more than the 48 hours a jog can last; check the duration."),
        ("99999999999999999999:00", "'99999999999999999999:00' is more than the 48 hours a jog can last; check the duration."),
    ])
    func bounds(text: String, message: String) {
        #expect(DurationParser.parse(text).failureMessage == message)
    }
}

extension Result where Failure: CustomStringConvertible {
    /// The refusal's message, nil on success.
    var failureMessage: String? {
        if case .failure(let failure) = self { failure.description } else { nil }
    }
}
