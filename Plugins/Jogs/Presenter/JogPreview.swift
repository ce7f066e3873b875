/// The pace and speed of what a form holds, shown under its fields as the user types.
enum JogPreview {
    /// "Pace 5:26 min/km · 11.0 km/h", nil while the values are not (yet) a valid jog.
    static func line(for result: Result<JogInput, JogFieldErrors>) -> String? {
        guard case .success(let input) = result else { return nil }
        let jog = input.jog(id: 0)
        return "Pace \(JogFormatter.pace(jog.paceSecondsPerKm)) · \(JogFormatter.speed(jog.speedTenthsKmh))"
    }
}
