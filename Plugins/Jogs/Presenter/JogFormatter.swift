/// How Jogs writes its figures: exact, from whole metres and seconds.
enum JogFormatter {
    /// Kilometres with up to three decimals, trailing zeros dropped: "5.25 km", "10 km", "0.8 km".
    static func distance(_ metres: Int) -> String {
        "\(kilometres(metres)) km"
    }

    /// The number alone, as the distance field takes it: "5.25".
    static func kilometres(_ metres: Int) -> String {
        let whole = metres / 1000, rest = metres % 1000
        guard rest != 0 else { return String(whole) }
        var fraction = String(rest)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }

    /// "m:ss" below an hour, else "h:mm:ss", as the duration field takes it: "28:30", "1:02:03".
    static func duration(_ seconds: Int) -> String {
        let hours = seconds / 3600, minutes = seconds % 3600 / 60, rest = seconds % 60
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    /// "5:26 min/km".
    static func pace(_ secondsPerKm: Int) -> String {
        "\(duration(secondsPerKm)) min/km"
    }

    /// "10.9 km/h" from tenths of km/h.
    static func speed(_ tenths: Int) -> String {
        "\(tenths / 10).\(tenths % 10) km/h"
    }

    static func jogs(_ count: Int) -> String {
        count == 1 ? "1 jog" : "\(count) jogs"
    }

    static func viewObject(_ jog: Jog) -> JogViewObject {
        JogViewObject(date: jog.date.description, distance: distance(jog.distanceMetres),
                      duration: duration(jog.durationSeconds), pace: pace(jog.paceSecondsPerKm),
                      route: JogsRoutes.jog(jog.id))
    }

    /// "3 jogs · 15.75 km · 1:25:30 · average pace 5:26 min/km".
    static func totals(_ totals: JogTotals) -> String {
        "\(jogs(totals.count)) · \(distance(totals.distanceMetres)) · \(duration(totals.durationSeconds)) · "
            + "average pace \(pace(totals.paceSecondsPerKm))"
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
