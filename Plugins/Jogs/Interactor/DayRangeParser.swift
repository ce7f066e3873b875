import Foundation

/// Reads the list's date filter (from/to fields, or `jogs?from=…&to=…`). An empty end is open;
/// both ends are real `YYYY-MM-DD` days and `from` is not after `to`. Future days are fine here:
/// a filter may reach past today.
enum DayRangeParser {
    static func parse(from rawFrom: String, to rawTo: String) -> Result<DayRange, DayRangeErrors> {
        var errors = DayRangeErrors()
        var range = DayRange.everything
        if !rawFrom.trimmingCharacters(in: .whitespaces).isEmpty {
            switch DayParser.parse(rawFrom, field: "from date") {
            case .success(let day): range.from = day
            case .failure(let rejection): errors.from = "From: \(rejection)"
            }
        }
        if !rawTo.trimmingCharacters(in: .whitespaces).isEmpty {
            switch DayParser.parse(rawTo, field: "to date") {
            case .success(let day): range.to = day
            case .failure(let rejection): errors.to = "To: \(rejection)"
            }
        }
        if errors.from == nil, errors.to == nil, let from = range.from, let to = range.to, to < from {
            errors.to = "To: \(to) is before From, \(from); swap the two dates."
        }
        guard errors.from == nil, errors.to == nil else { return .failure(errors) }
        return .success(range)
    }
}
