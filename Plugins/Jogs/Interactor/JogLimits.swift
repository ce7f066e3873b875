/// The bounds a jog must stay within. Wide enough for an ultra-marathon, narrow enough to catch
/// a typo (metres typed as kilometres, seconds as minutes).
enum JogLimits {
    /// 1000 km.
    static let maxDistanceMetres = 1_000_000
    /// 48 hours.
    static let maxDurationSeconds = 48 * 3600
    /// Kilometres are kept to the metre.
    static let maxDistanceDecimals = 3
    /// Average speed, km/h: slower than a walk with rests, or faster than the fastest runners
    /// over any distance, is a typo in the distance or the duration.
    static let speedKmh = 1...30
    /// The earliest date a jog may have; anything before is a typo.
    static let earliestDay = Day(year: 1900, month: 1, day: 1)!
}
