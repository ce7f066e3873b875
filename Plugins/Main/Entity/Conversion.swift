import Foundation

/// The result of converting an amount, before any display rounding.
struct Conversion: Sendable, Equatable {
    let amount: Decimal
    let from: Currency
    let to: Currency
    /// Units of `to` for one unit of `from` (a cross rate through EUR).
    let rate: Decimal
    /// `amount` in `to`, unrounded.
    let result: Decimal
    /// The reference date of the rates used.
    let date: String
    let source: RatesSource
}

enum ConversionError: Error, Equatable, CustomStringConvertible {
    case unknownCurrency(Currency, date: String)

    var description: String {
        switch self {
        case .unknownCurrency(let currency, let date):
            "\(currency) is not quoted in the rates of \(date); choose another currency"
        }
    }
}

/// What the user last converted; kept in storage so it survives a restart, and the hot-swap state.
struct SavedConversion: Codable, Sendable, Equatable {
    var from: Currency
    var to: Currency
    /// The amount as the user typed it, already normalised by the input rules ("12.5", "" = 0).
    var amount: String
}
