/// A jog's form as the user typed it: three texts, not yet checked (`JogValidator` checks them).
struct JogDraft: Equatable, Sendable, Codable {
    var date: String
    var distance: String
    var duration: String

    init(date: String = "", distance: String = "", duration: String = "") {
        self.date = date
        self.distance = distance
        self.duration = duration
    }
}
