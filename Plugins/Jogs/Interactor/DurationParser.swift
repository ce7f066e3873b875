import Foundation

/// Reads the duration field: `h:mm:ss` (`1:02:03`) or `mm:ss` (`45:30`; minutes may pass 59,
/// `75:00` is 1 h 15 min). Seconds, and minutes after hours, are two digits from 00 to 59, so
/// `1:75` and `1:5` are refused rather than guessed at. Returns whole seconds, or a message that
/// says what was wrong and what to type.
enum DurationParser {
    static func parse(_ raw: String) -> Result<Int, DurationRejection> {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return .failure(.empty) }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard (2...3).contains(parts.count), parts.allSatisfy(isDigits) else { return .failure(.notADuration(raw: raw)) }

        let seconds = parts[parts.count - 1]
        guard seconds.count == 2 else { return .failure(.twoDigits(raw: raw, part: .seconds)) }
        guard let secondsValue = Int(seconds), secondsValue < 60 else {
            return .failure(.outOfRange(raw: raw, part: .seconds, value: Int(seconds) ?? 0))
        }
        // A first part longer than any duration within the limit: too long, and no Int overflow.
        guard parts[0].drop(while: { $0 == "0" }).count <= 4 else { return .failure(.tooLong(raw: raw)) }
        var total = secondsValue
        if parts.count == 3 {
            let minutes = parts[1]
            guard minutes.count == 2 else { return .failure(.twoDigits(raw: raw, part: .minutes)) }
            guard let minutesValue = Int(minutes), minutesValue < 60 else {
                return .failure(.outOfRange(raw: raw, part: .minutes, value: Int(minutes) ?? 0))
            }
            total += (Int(parts[0]) ?? 0) * 3600 + minutesValue * 60
        } else {
            total += (Int(parts[0]) ?? 0) * 60
        }
        guard total > 0 else { return .failure(.zero(raw: raw)) }
        guard total <= JogLimits.maxDurationSeconds else { return .failure(.tooLong(raw: raw)) }
        return .success(total)
    }
}

/// Why a duration was refused.
enum DurationRejection: Error, Equatable, CustomStringConvertible {
    enum Part: String, Equatable, Sendable { case minutes, seconds }

    case empty
    case notADuration(raw: String)
    case twoDigits(raw: String, part: Part)
    case outOfRange(raw: String, part: Part, value: Int)
    case zero(raw: String)
    case tooLong(raw: String)

    var description: String {
        switch self {
        case .empty:
            "Enter the duration as h:mm:ss or mm:ss, e.g. 45:30 or 1:02:03."
        case .notADuration(let raw):
            "'\(raw)' is not a duration: type h:mm:ss or mm:ss, e.g. 45:30 or 1:02:03."
        case .twoDigits(let raw, let part):
            "'\(raw)': write the \(part.rawValue) with two digits, e.g. \(part == .seconds ? "45:05" : "1:05:00")."
        case .outOfRange(let raw, let part, let value):
            // Say what the user probably meant: 75 seconds is 1:15, 75 minutes is 1:15:00.
            "'\(raw)' has \(value) \(part.rawValue); \(part.rawValue) go from 00 to 59 (\(value) \(part.rawValue) is "
                + "\(value / 60):\(value % 60 < 10 ? "0" : "")\(value % 60)\(part == .minutes ? ":00" : ""))."
        case .zero(let raw):
            "'\(raw)': the duration must be more than 0."
        case .tooLong(let raw):
            "'\(raw)' is more than the \(JogLimits.maxDurationSeconds / 3600) hours a jog can last; check the duration."
        }
    }
}
