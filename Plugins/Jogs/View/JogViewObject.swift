/// One jog as the view shows it, already formatted by the presenter: strings only, never the
/// `Jog` entity.
struct JogViewObject: Equatable, Sendable {
    /// "2026-01-05"
    var date: String
    /// "5.25 km"
    var distance: String
    /// "28:30" or "1:02:03"
    var duration: String
    /// "5:26 min/km"
    var pace: String
    /// The detail screen's route, "jogs/42".
    var route: String
}
