import Foundation

/// Where a set of rates came from.
enum RatesSource: Sendable, Equatable, Codable {
    /// The ECB snapshot compiled into the plugin (`BundledRates`).
    case bundled
    /// Fetched just now from this URL.
    case live(url: String)
    /// Fetched earlier from this URL and read back from storage.
    case cached(url: String)
}

/// One day of ECB reference rates: how many units of each currency one euro buys.
/// EUR itself is implied (1) and never stored in `perEuro`.
struct ExchangeRates: Sendable, Equatable {
    /// The ECB's reference date, `YYYY-MM-DD`.
    let date: String
    /// Units of each currency per 1 EUR; every value is positive.
    let perEuro: [Currency: Decimal]
    let source: RatesSource

    init(date: String, perEuro: [Currency: Decimal], source: RatesSource) {
        self.date = date
        self.perEuro = perEuro.filter { $0.key != .euro }
        self.source = source
    }

    /// EUR plus every quoted currency, sorted by code.
    var currencies: [Currency] {
        ([Currency.euro] + perEuro.keys).sorted()
    }

    func contains(_ currency: Currency) -> Bool {
        currency == .euro || perEuro[currency] != nil
    }

    /// Units of `currency` per 1 EUR (1 for EUR); nil for a currency these rates do not quote.
    func unitsPerEuro(_ currency: Currency) -> Decimal? {
        currency == .euro ? 1 : perEuro[currency]
    }

    /// The same rates, labelled with another source.
    func with(source: RatesSource) -> ExchangeRates {
        ExchangeRates(date: date, perEuro: perEuro, source: source)
    }
}

extension ExchangeRates {
    /// Converts through EUR: `amount × (to per EUR) ÷ (from per EUR)`, multiplied first so that
    /// exact results stay exact (100 USD → USD is exactly 100). Unrounded; display rounds.
    func convert(_ amount: Decimal, from: Currency, to: Currency) throws(ConversionError) -> Conversion {
        guard let fromPerEuro = unitsPerEuro(from) else { throw .unknownCurrency(from, date: date) }
        guard let toPerEuro = unitsPerEuro(to) else { throw .unknownCurrency(to, date: date) }
        let rate: Decimal = from == to ? 1 : toPerEuro / fromPerEuro
        let result: Decimal = from == to ? amount : amount * toPerEuro / fromPerEuro
        return Conversion(amount: amount, from: from, to: to, rate: rate, result: result, date: date, source: source)
    }
}
