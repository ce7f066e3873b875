/// The rules a jog's form must follow, checked all at once so the user sees every problem in one
/// go: a real `YYYY-MM-DD` date from 1900 to today (no future runs), a distance above 0 and up
/// to 1000 km (`DistanceParser`), a duration above 0 and up to 48 h (`DurationParser`), and
/// together an average speed of 1 to 30 km/h (`JogLimits.speedKmh`).
struct JogValidator: Sendable {
    /// Today, from the injected clock: the latest date a jog may have.
    let today: Day

    func validate(_ draft: JogDraft) -> Result<JogInput, JogFieldErrors> {
        var errors = JogFieldErrors()
        let date: Day?
        switch DayParser.parse(draft.date, field: "date") {
        case .success(let day):
            if today < day {
                errors.date = "\(day) is in the future; a jog can only be logged on or before today, \(today)."
                date = nil
            } else if day < JogLimits.earliestDay {
                errors.date = "\(day) is before \(JogLimits.earliestDay); check the year."
                date = nil
            } else {
                date = day
            }
        case .failure(let rejection):
            errors.date = rejection.description
            date = nil
        }
        let distance: Int?
        switch DistanceParser.parse(draft.distance) {
        case .success(let metres): distance = metres
        case .failure(let rejection): errors.distance = rejection.description; distance = nil
        }
        let duration: Int?
        switch DurationParser.parse(draft.duration) {
        case .success(let seconds): duration = seconds
        case .failure(let rejection): errors.duration = rejection.description; duration = nil
        }
        if let distance, let duration, let problem = Self.speedProblem(metres: distance, seconds: duration) {
            errors.duration = problem
            return .failure(errors)
        }
        guard let date, let distance, let duration else { return .failure(errors) }
        return .success(JogInput(date: date, distanceMetres: distance, durationSeconds: duration))
    }

    /// Why `metres` in `seconds` is no jog, or nil. Integer arithmetic: km/h = metres · 3.6 / seconds.
    static func speedProblem(metres: Int, seconds: Int) -> String? {
        let limits = JogLimits.speedKmh
        let tooFast = metres * 3600 > limits.upperBound * 1000 * seconds
        let tooSlow = metres * 3600 < limits.lowerBound * 1000 * seconds
        guard tooFast || tooSlow else { return nil }
        let kmh = Double(metres) * 3.6 / Double(seconds)
        let shown = kmh >= 10 ? String(Int(kmh.rounded())) : kmh < 0.05 ? "under 0.1" : String(Double((kmh * 10).rounded()) / 10)
        return "That is \(shown) km/h on average; a jog is \(limits.lowerBound) to \(limits.upperBound) km/h. Check the distance (km) and the duration (h:mm:ss or mm:ss)."
    }
}
