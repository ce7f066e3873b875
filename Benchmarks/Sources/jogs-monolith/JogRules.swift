import Foundation

/// A jog the form accepted.
struct JogInput: Sendable {
    var date: String
    var distanceMetres: Int
    var durationSeconds: Int
}

struct JogForm: Decodable, Sendable {
    var _csrf: String?
    var date: String?
    var distance: String?
    var duration: String?
    var _action: String?
}

/// The same rules as den's Jogs form (JogValidator): a real date from 1900 to today, 0 < distance
/// ≤ 1000 km to the metre, 0 < duration ≤ 48 h as h:mm:ss or mm:ss, 1–30 km/h on average.
enum JogRules {
    struct Errors: Error, Sendable {
        var date: String?
        var distance: String?
        var duration: String?
    }

    static func today() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        return day(parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    static func day(_ year: Int, _ month: Int, _ day: Int) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        return "\(year)-\(two(month))-\(two(day))"
    }

    static func validate(date rawDate: String, distance rawDistance: String, duration rawDuration: String) -> Result<JogInput, Errors> {
        var errors = Errors()
        let date = rawDate.trimmingCharacters(in: .whitespaces)
        let today = today()
        if !isDay(date) {
            errors.date = "'\(rawDate)' is not a date: use YYYY-MM-DD, e.g. \(today)."
        } else if date > today {
            errors.date = "\(date) is in the future; a jog can only be logged on or before today, \(today)."
        } else if date < "1900-01-01" {
            errors.date = "\(date) is before 1900-01-01; check the year."
        }
        let metres = distance(rawDistance)
        if metres == nil { errors.distance = "'\(rawDistance)' is not a distance: type kilometres from 0.001 to 1000, e.g. 5.25." }
        let seconds = duration(rawDuration)
        if seconds == nil { errors.duration = "'\(rawDuration)' is not a duration: type h:mm:ss or mm:ss, e.g. 28:30." }
        if let metres, let seconds, metres * 3600 > 30 * 1000 * seconds || metres * 3600 < 1 * 1000 * seconds {
            errors.duration = "That is not 1 to 30 km/h on average; check the distance (km) and the duration (h:mm:ss or mm:ss)."
        }
        guard errors.date == nil, errors.distance == nil, errors.duration == nil, let metres, let seconds else { return .failure(errors) }
        return .success(JogInput(date: date, distanceMetres: metres, durationSeconds: seconds))
    }

    static func isDay(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    static func distance(_ raw: String) -> Int? {
        var text = raw.trimmingCharacters(in: .whitespaces)
        if text.lowercased().hasSuffix("km") { text = String(text.dropLast(2)).trimmingCharacters(in: .whitespaces) }
        let parts = text.replacingOccurrences(of: ",", with: ".").split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              parts.contains(where: { !$0.isEmpty }), parts.count == 1 || parts[1].count <= 3, parts[0].count <= 7 else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        let metres = (Int(parts[0]) ?? 0) * 1000 + (Int(fraction + String(repeating: "0", count: 3 - fraction.count)) ?? 0)
        return (1...1_000_000).contains(metres) ? metres : nil
    }

    static func duration(_ raw: String) -> Int? {
        let parts = raw.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              parts[0].count <= 4, parts.dropFirst().allSatisfy({ $0.count == 2 }) else { return nil }
        let values = parts.map { Int($0) ?? 0 }
        guard values.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let total = values.count == 3 ? values[0] * 3600 + values[1] * 60 + values[2] : values[0] * 60 + values[1]
        return (1...48 * 3600).contains(total) ? total : nil
    }

    // MARK: Formatting (as den's JogFormatter)

    static func kilometres(_ metres: Int) -> String {
        let whole = metres / 1000, rest = metres % 1000
        guard rest != 0 else { return String(whole) }
        var fraction = String(rest)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }

    static func duration(seconds: Int) -> String {
        let hours = seconds / 3600, minutes = seconds % 3600 / 60, rest = seconds % 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    static func pace(seconds: Int, metres: Int) -> String {
        guard metres > 0 else { return "–" }
        return duration(seconds: (seconds * 1000 + metres / 2) / metres) + " min/km"
    }

    static func totals(_ jogs: [Jog]) -> String {
        let metres = jogs.reduce(0) { $0 + $1.distanceMetres }, seconds = jogs.reduce(0) { $0 + $1.durationSeconds }
        let count = jogs.count == 1 ? "1 jog" : "\(jogs.count) jogs"
        return "\(count) · \(kilometres(metres)) km · \(duration(seconds: seconds)) · average pace \(pace(seconds: seconds, metres: metres))"
    }

    /// The Monday of `date`'s week (ISO weeks start on Monday), as YYYY-MM-DD.
    static func weekStart(_ date: String) -> String {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return date }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let day = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else { return date }
        let weekday = calendar.component(.weekday, from: day)  // 1 = Sunday
        let monday = calendar.date(byAdding: .day, value: -((weekday + 5) % 7), to: day) ?? day
        let c = calendar.dateComponents([.year, .month, .day], from: monday)
        return Self.day(c.year ?? 1970, c.month ?? 1, c.day ?? 1)
    }
}
