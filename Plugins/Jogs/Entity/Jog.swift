/// One run of the logged-in user: plain data, shared by the interactor and the repository,
/// never handed to the view (the presenter makes `JogViewObject`s from it).
///
/// Distance and duration are whole metres and whole seconds, so sums and averages are exact
/// integer arithmetic; the km and h:mm:ss the user types are converted at the edge.
struct Jog: Equatable, Sendable {
    /// Unique among the owner's jogs; never reused (`storage.increment` hands it out).
    let id: Int
    var date: Day
    var distanceMetres: Int
    var durationSeconds: Int

    /// Seconds per kilometre, rounded to the nearest second.
    var paceSecondsPerKm: Int {
        JogArithmetic.pace(seconds: durationSeconds, metres: distanceMetres)
    }

    /// Kilometres per hour in tenths (109 is 10.9 km/h), rounded to the nearest tenth.
    var speedTenthsKmh: Int {
        JogArithmetic.speedTenths(metres: distanceMetres, seconds: durationSeconds)
    }
}

/// What the user entered for a jog, validated (`JogValidator`): everything but the id.
struct JogInput: Equatable, Sendable {
    var date: Day
    var distanceMetres: Int
    var durationSeconds: Int

    func jog(id: Int) -> Jog {
        Jog(id: id, date: date, distanceMetres: distanceMetres, durationSeconds: durationSeconds)
    }
}
