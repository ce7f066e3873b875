import Foundation

/// What a well-formed rates document must also be before its rates are used: the ECB's own
/// currency set (no more, no less), rates near what the ECB has published, and a reference date
/// that can exist. The parser (`ECBRatesParser`) only checks the format; a document that passes
/// it can still be a wrong one (another provider's file, a test server, a damaged cache), and
/// such a document is refused whole, never half-applied.
struct RatesPlausibility: Sendable {
    /// The currencies the ECB quotes: those of the bundled snapshot. A change of the ECB's set
    /// needs a new snapshot (and Main version), which is what keeps a stray XAU out.
    let currencies: Set<Currency>
    /// Units per euro the ECB published (the bundled snapshot), the centre of each plausible range.
    let reference: [Currency: Decimal]
    /// The first day of ECB reference rates.
    let earliestDate: String
    /// The latest reference date that can exist now: tomorrow in UTC (the ECB publishes around
    /// 16:00 CET; a day of slack keeps every time zone's "today" valid).
    let latestDate: String

    /// A rate more than this factor away from the snapshot's is refused: currencies do move
    /// (TRY went from 3 to 55 per euro in ten years), but not by a factor of 100 between files.
    static let maxFactor: Decimal = 100
    static let firstECBDate = "1999-01-04"

    /// The checks against the bundled snapshot and the clock (`now`).
    static func standard(now: Date = Date()) -> RatesPlausibility {
        let snapshot = bundledSnapshot
        return RatesPlausibility(currencies: Set(snapshot.perEuro.keys), reference: snapshot.perEuro,
                                 earliestDate: firstECBDate, latestDate: isoDay(now.addingTimeInterval(86_400)))
    }

    /// Throws the first reason `rates` cannot be the ECB's, or returns.
    func check(_ rates: ExchangeRates) throws(RatesError) {
        let quoted = Set(rates.perEuro.keys)
        let missing = currencies.subtracting(quoted).map(\.code).sorted()
        let extra = quoted.subtracting(currencies).map(\.code).sorted()
        if !missing.isEmpty || !extra.isEmpty {
            throw .unexpectedCurrencies(missing: missing, extra: extra)
        }
        for currency in rates.perEuro.keys.sorted() {
            guard let rate = rates.perEuro[currency], let centre = reference[currency] else { continue }
            let low = centre / Self.maxFactor, high = centre * Self.maxFactor
            guard rate >= low, rate <= high else {
                throw .implausibleRate(currency: currency.code, value: AmountFormatter.plain(rate),
                                       low: AmountFormatter.rate(low), high: AmountFormatter.rate(high))
            }
        }
        // ISO dates (already checked by the parser) compare as strings.
        guard rates.date >= earliestDate, rates.date <= latestDate else {
            throw .implausibleDate(rates.date, earliest: earliestDate, latest: latestDate)
        }
    }

    /// The snapshot compiled into the plugin; only EUR if it does not parse (the tests parse it).
    static let bundledSnapshot: ExchangeRates = (try? BundledRatesProvider().loadRates())
        ?? ExchangeRates(date: BundledRates.date, perEuro: [:], source: .bundled)

    static func isoDay(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
