/// Sums over some jogs. Averages are over the total (total time ÷ total distance), not the
/// mean of each jog's pace: a 20 km run counts four times as much as a 5 km one.
struct JogTotals: Equatable, Sendable {
    var count: Int
    var distanceMetres: Int
    var durationSeconds: Int

    init<S: Sequence>(_ jogs: S) where S.Element == Jog {
        count = 0
        distanceMetres = 0
        durationSeconds = 0
        for jog in jogs {
            count += 1
            distanceMetres += jog.distanceMetres
            durationSeconds += jog.durationSeconds
        }
    }

    /// Average seconds per kilometre.
    var paceSecondsPerKm: Int {
        JogArithmetic.pace(seconds: durationSeconds, metres: distanceMetres)
    }

    /// Average speed in tenths of km/h.
    var speedTenthsKmh: Int {
        JogArithmetic.speedTenths(metres: distanceMetres, seconds: durationSeconds)
    }
}

/// One line of the weekly report.
struct WeekSummary: Equatable, Sendable {
    let week: ISOWeek
    let totals: JogTotals
}
