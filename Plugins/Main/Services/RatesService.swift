import Foundation

/// A source of ECB reference rates. Providers: `BundledRatesProvider` (offline snapshot compiled
/// into the plugin) and `HTTPRatesProvider` (an `eurofxref-daily.xml` document at a URL).
/// A provider either returns a complete, validated set of rates or throws: never a partial set.
protocol RatesService {
    func loadRates() throws(RatesError) -> ExchangeRates
}

/// Why a rates document or source was refused. Each message says what was wrong.
enum RatesError: Error, Equatable, CustomStringConvertible {
    case empty
    case tooLarge(bytes: Int, limit: Int)
    case notWellFormed(String)
    case truncated(openElement: String)
    case missingDate
    case badDate(String)
    case multipleDays(Int)
    case noRates(date: String)
    case rateOutsideDay(currency: String)
    case badCurrency(String, reason: String)
    case badRate(currency: String, value: String)
    case duplicateCurrency(String)
    case fetchFailed(String)
    case unexpectedCurrencies(missing: [String], extra: [String])
    case implausibleRate(currency: String, value: String, low: String, high: String)
    case implausibleDate(String, earliest: String, latest: String)

    var description: String {
        switch self {
        case .empty:
            "the rates document is empty"
        case .tooLarge(let bytes, let limit):
            "the rates document is too large (\(bytes) bytes; at most \(limit))"
        case .notWellFormed(let detail):
            "the rates document is not well-formed XML (\(detail))"
        case .truncated(let element):
            "the rates document is truncated (element <\(element)> is never closed)"
        case .missingDate:
            "the rates document has no reference date (<Cube time='YYYY-MM-DD'>); is it an ECB eurofxref-daily.xml file?"
        case .badDate(let text):
            "the rates document has an invalid reference date '\(text)' (expected YYYY-MM-DD)"
        case .multipleDays(let count):
            "the rates document holds \(count) days of rates; use the daily file (eurofxref-daily.xml)"
        case .noRates(let date):
            "the rates document for \(date) quotes no currency"
        case .rateOutsideDay(let currency):
            "the rate for '\(currency)' is outside a dated <Cube time='...'> element"
        case .badCurrency(let code, let reason):
            "the rates document quotes an invalid currency '\(code)': \(reason)"
        case .badRate(let currency, let value):
            "the rate of \(currency) is '\(value)', not a positive decimal number"
        case .duplicateCurrency(let code):
            "the rates document quotes \(code) more than once"
        case .fetchFailed(let reason):
            "the rates could not be fetched: \(reason)"
        case .unexpectedCurrencies(let missing, let extra):
            "the rates document is not the ECB's currency set ("
                + [missing.isEmpty ? nil : "missing \(missing.joined(separator: ", "))",
                   extra.isEmpty ? nil : "not quoted by the ECB: \(extra.joined(separator: ", "))"]
                    .compactMap { $0 }.joined(separator: "; ")
                + "); refused as a whole"
        case .implausibleRate(let currency, let value, let low, let high):
            "the rate of \(currency) is \(value) per euro, outside the plausible \(low) to \(high); refused as a whole"
        case .implausibleDate(let date, let earliest, let latest):
            "the reference date \(date) is not plausible (the ECB's rates run from \(earliest) to \(latest)); refused as a whole"
        }
    }
}
