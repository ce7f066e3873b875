import Foundation

/// The rules for the amount the user types (checked when the form is submitted):
///
/// - surrounding spaces are ignored; empty input means 0;
/// - only the ASCII digits 0-9 and one decimal separator; a comma is read as a dot;
/// - a separator first means "0." (".5" is 0.5); a separator last is kept ("5." is 5);
/// - no second leading zero: "00", "000", "007" and "00.5" are refused; a single leading zero
///   before another digit is dropped, as in a text field where typing a digit over "0" replaces
///   it ("05" → "5", "05.5" → "5.5"); "0" and "0.5" are fine;
/// - at most 15 digits before the separator and 6 after (keeps every amount exact in `Decimal`).
///
/// Refused input is never applied: the presenter keeps the previous valid amount and shows the
/// reason on the field.
enum AmountInput {
    static let maxIntegerDigits = 15
    static let maxFractionDigits = 6

    /// A valid amount: `text` is the normalised input (comma → dot, ".5" → "0.5", "05" → "5"),
    /// `value` its number.
    struct Amount: Equatable, Sendable {
        let text: String
        let value: Decimal

        static let zero = Amount(text: "", value: 0)
    }

    static func parse(_ input: String) throws(AmountRejection) -> Amount {
        let raw = input.trimmingWhitespace()
        if raw.isEmpty { return .zero }
        for character in raw where !(character.isASCII && (character.isNumber || character == "." || character == ",")) {
            throw .notAllowed(character)
        }
        let text = raw.replacingOccurrences(of: ",", with: ".")
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw .secondSeparator }
        var integer = parts[0].isEmpty ? "0" : String(parts[0])
        let fraction = parts.count == 2 ? String(parts[1]) : nil
        guard !integer.hasPrefix("00") else { throw .leadingZero }
        if integer.count > 1 && integer.hasPrefix("0") { integer.removeFirst() }
        guard integer.count <= maxIntegerDigits else { throw .tooManyIntegerDigits }
        guard (fraction?.count ?? 0) <= maxFractionDigits else { throw .tooManyFractionDigits }
        let normalised = fraction.map { "\(integer).\($0)" } ?? integer
        let number = fraction.map { $0.isEmpty ? integer : normalised } ?? integer
        guard let value = Decimal(string: number, locale: Locale(identifier: "en_US_POSIX")) else {
            throw .notAllowed(raw.first ?? " ")
        }
        return Amount(text: normalised, value: value)
    }
}

/// Why an amount was refused; `description` says what is allowed.
enum AmountRejection: Error, Equatable, CustomStringConvertible {
    case notAllowed(Character)
    case secondSeparator
    case leadingZero
    case tooManyIntegerDigits
    case tooManyFractionDigits

    var description: String {
        switch self {
        case .notAllowed(let character):
            "'\(character)' is not allowed: use only digits and one decimal separator (. or ,)"
        case .secondSeparator:
            "only one decimal separator (. or ,) is allowed"
        case .leadingZero:
            "no second leading zero: write 0, 0.5 or 5, not 00"
        case .tooManyIntegerDigits:
            "at most \(AmountInput.maxIntegerDigits) digits before the decimal separator"
        case .tooManyFractionDigits:
            "at most \(AmountInput.maxFractionDigits) digits after the decimal separator"
        }
    }
}
