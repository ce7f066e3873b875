/// Pace and speed from whole metres and seconds, in integers rounded half up, so the same jog
/// always shows the same figures (no floating-point drift between a row and a total).
enum JogArithmetic {
    /// Seconds per kilometre: seconds × 1000 ÷ metres, rounded; 0 without distance.
    static func pace(seconds: Int, metres: Int) -> Int {
        guard metres > 0, seconds >= 0 else { return 0 }
        return (seconds * 1000 + metres / 2) / metres
    }

    /// Tenths of km/h: metres × 3.6 ÷ seconds × 10 = metres × 36 ÷ seconds, rounded; 0 without time.
    static func speedTenths(metres: Int, seconds: Int) -> Int {
        guard seconds > 0, metres >= 0 else { return 0 }
        return (metres * 36 + seconds / 2) / seconds
    }
}
