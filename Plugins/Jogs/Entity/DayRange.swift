/// The list's date filter: jogs from `from` to `to`, both days included; a missing end is open.
struct DayRange: Equatable, Sendable {
    var from: Day?
    var to: Day?

    static let everything = DayRange(from: nil, to: nil)

    var isEverything: Bool { from == nil && to == nil }

    func contains(_ day: Day) -> Bool {
        if let from, day < from { return false }
        if let to, to < day { return false }
        return true
    }
}
