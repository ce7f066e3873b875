import Foundation

/// Reads a date field (`YYYY-MM-DD`), with a message that says what was wrong and what to type.
enum DayParser {
    /// `field` names the field in the message ("date", "from").
    static func parse(_ raw: String, field: String) -> Result<Day, DayRejection> {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return .failure(DayRejection("Enter the \(field) as YYYY-MM-DD, e.g. 2026-01-31.")) }
        if let day = Day(text) { return .success(day) }
        // Well-formed but impossible (2026-02-30) deserves its own message.
        let shaped = text.utf8.count == 10 && text.utf8.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (0x30...0x39).contains(byte)
        }
        if shaped { return .failure(DayRejection("'\(raw)' is not a day of the calendar; check the month and the day.")) }
        return .failure(DayRejection("'\(raw)' is not a date: type YYYY-MM-DD, e.g. 2026-01-31."))
    }
}

/// Why a date was refused.
struct DayRejection: Error, Equatable, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
