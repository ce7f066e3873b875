import Foundation
import Testing
@testable import MainModule

/// Fetched (and cached) rates are checked in full: only the ECB's currency set, plausible
/// positive rates and a plausible reference date; anything else is refused whole.
@Suite("Rates plausibility")
struct RatesPlausibilityTests {
    private let check = RatesPlausibility(
        currencies: Set(RatesPlausibility.bundledSnapshot.perEuro.keys), reference: RatesPlausibility.bundledSnapshot.perEuro,
        earliestDate: RatesPlausibility.firstECBDate, latestDate: "2026-11-23")

    private func fetch(_ xml: String, plausibility: RatesPlausibility? = nil) throws(RatesError) -> ExchangeRates {
        var provider = HTTPRatesProvider(url: "http://r.test/x.xml", fetcher: MockFetcher.serving(xml))
        provider.plausibility = plausibility ?? check
        return try provider.loadRates()
    }

    @Test("the bundled snapshot and another ECB day pass")
    func ecbPasses() throws {
        #expect(try fetch(BundledRates.xml).perEuro.count == 29)
        #expect(try fetch(otherDayXML).date == "2026-10-05")
    }

    @Test("a document missing a currency is refused, naming it")
    func missingCurrency() {
        let xml = bundledXML(replacing: "<Cube currency='JPY' rate='176.99'/>", with: "")
        #expect(throws: RatesError.unexpectedCurrencies(missing: ["JPY"], extra: [])) { try fetch(xml) }
    }

    @Test("a currency the ECB does not quote is refused, naming it")
    func extraCurrency() {
        let xml = bundledXML(replacing: "<Cube currency='USD' rate='1.1225'/>",
                             with: "<Cube currency='USD' rate='1.1225'/><Cube currency='XAU' rate='0.0004'/>")
        let error = #expect(throws: RatesError.self) { try fetch(xml) }
        #expect(error == .unexpectedCurrencies(missing: [], extra: ["XAU"]))
        #expect(error?.description.contains("not quoted by the ECB: XAU") == true)
    }

    @Test("an implausible rate is refused whole", arguments: ["0.0000000001", "1000000", "0.01"])
    func implausibleRate(rate: String) {
        let xml = bundledXML(replacing: "rate='1.1225'", with: "rate='\(rate)'")
        let error = #expect(throws: RatesError.self) { try fetch(xml) }
        guard case .implausibleRate(let currency, _, _, _) = error else {
            Issue.record("expected an implausible rate, got \(String(describing: error))")
            return
        }
        #expect(currency == "USD")
        #expect(error?.description.contains("refused as a whole") == true)
    }

    @Test("a rate that moved but stays plausible is accepted")
    func movedRate() throws {
        #expect(try fetch(bundledXML(replacing: "rate='1.1225'", with: "rate='2.5'")).perEuro[usd] == dec("2.5"))
    }

    @Test("an implausible reference date is refused", arguments: ["2999-01-01", "2026-11-24", "1998-12-31"])
    func implausibleDate(date: String) {
        let xml = bundledXML(replacing: "time='2026-10-02'", with: "time='\(date)'")
        #expect(throws: RatesError.implausibleDate(date, earliest: "1999-01-04", latest: "2026-11-23")) { try fetch(xml) }
    }

    @Test("the standard check allows tomorrow (UTC) and no later")
    func standardDates() {
        let now = Date(timeIntervalSince1970: 1_790_000_000) // 2026-09-21
        #expect(RatesPlausibility.standard(now: now).latestDate == "2026-09-22")
    }

    @Test("a cached document is checked like a download")
    func cacheChecked() {
        let xml = bundledXML(replacing: "<Cube currency='JPY' rate='176.99'/>", with: "")
        let entry = RatesCache.Entry(url: "http://r.test", date: "2026-10-02", document: Data(xml.utf8).base64EncodedString())
        let json = String(decoding: try! JSONEncoder().encode(entry), as: UTF8.self)
        let cache = RatesCache(store: MockSettingsStore([SettingsKey.ratesCache: json]))
        #expect(throws: RatesError.unexpectedCurrencies(missing: ["JPY"], extra: [])) { try cache.load() }
    }
}
