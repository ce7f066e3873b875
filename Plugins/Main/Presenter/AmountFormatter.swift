import Foundation

/// How numbers are shown. Always '.' as the decimal separator and no grouping separator, in
/// every locale (the output is also what the amount field accepts back).
enum AmountFormatter {
    /// Money: at most 2 fraction digits, rounded down (truncated toward zero, never up); a
    /// whole amount has no fraction ("5", not "5.00"), any other keeps both digits
    /// ("12.999" → "12.99", "1234567.5" → "1234567.50", "0.1" → "0.10").
    static func money(_ value: Decimal) -> String {
        guard !value.isNaN else { return "—" }
        var source = value.magnitude
        var truncated = Decimal()
        NSDecimalRound(&truncated, &source, 2, .down)
        let digits = fixed(truncated, fractionDigits: 2)
        let text = digits.hasSuffix(".00") ? String(digits.dropLast(3)) : digits
        return value < 0 && truncated != 0 ? "-" + text : text
    }

    /// An exchange rate: rounded half-up to 4 fraction digits ("0.8909", "157.6748"); a rate
    /// below 0.1 gets 4 significant digits instead ("0.005650", "0.00004963").
    static func rate(_ value: Decimal) -> String {
        rate(value, digits: 4, mode: .plain)
    }

    /// The rate beside a converted amount: 6 digits, rounded down like the amount, so that the
    /// amount times the rate shown never seems to round past the result ("1 USD = 0.890868 EUR"
    /// beside "100 USD = 89.08 EUR", where 0.8909 read like an arithmetic error).
    static func conversionRate(_ value: Decimal) -> String {
        rate(value, digits: 6, mode: .down)
    }

    private static func rate(_ value: Decimal, digits: Int, mode: NSDecimalNumber.RoundingMode) -> String {
        guard !value.isNaN, value > 0 else { return "—" }
        var scale = digits
        var probe = value
        while probe < Decimal(string: "0.1")!, scale < 16 + digits - 4 {
            probe *= 10
            scale += 1
        }
        var source = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &source, scale, mode)
        return fixed(rounded, fractionDigits: scale)
    }

    /// An amount as entered, for sentences ("12.5", "0"; never "5." or "").
    static func plain(_ value: Decimal) -> String {
        value.isNaN ? "—" : fixed(value, fractionDigits: nil)
    }

    /// `value` in plain notation with exactly `fractionDigits` digits after '.' (padded with
    /// zeros; `value` must already be rounded), or as many as it has when nil.
    private static func fixed(_ value: Decimal, fractionDigits: Int?) -> String {
        let text = value.description // plain notation, '.' separator, no grouping
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        guard let fractionDigits else { return fraction.isEmpty ? integer : "\(integer).\(fraction)" }
        guard fractionDigits > 0 else { return integer }
        let padded = fraction.padding(toLength: fractionDigits, withPad: "0", startingAt: 0)
        return "\(integer).\(padded)"
    }
}
