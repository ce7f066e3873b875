import Foundation
import Testing
@testable import MainModule

@Suite("ECB rates XML parser")
struct ECBRatesParserTests {
    private func parse(_ xml: String, source: RatesSource = .bundled) throws(RatesError) -> ExchangeRates {
        try ECBRatesParser.parse(Data(xml.utf8), source: source)
    }

    @Test("the bundled file: 29 currencies on 2026-10-02")
    func bundledFile() throws {
        let rates = try bundledRates()
        #expect(rates.date == "2026-10-02")
        #expect(rates.perEuro.count == 29)
        #expect(rates.perEuro[usd] == dec("1.1225"))
        #expect(rates.perEuro[jpy] == dec("176.99"))
        #expect(rates.perEuro[currency("IDR")] == dec("20149.32"))
        #expect(rates.perEuro[eur] == nil)
        #expect(rates.source == .bundled)
    }

    @Test("the currency list is EUR plus the 29, sorted")
    func currencyList() throws {
        let codes = try bundledRates().currencies.map(\.code)
        #expect(codes.count == 30)
        #expect(codes == codes.sorted())
        #expect(codes.first == "AUD")
        #expect(codes.last == "ZAR")
        #expect(codes.contains("EUR"))
    }

    @Test("the bundled constant is the ECB data file byte for byte")
    func bundledMatchesDataFile() throws {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/eurofxref-daily-2026-10-02.xml")
        let data = try #require(FileManager.default.contents(atPath: file.path))
        #expect(Data(BundledRates.xml.utf8) == data)
        #expect(BundledRates.date == "2026-10-02")
    }

    @Test("garbage is refused", arguments: ["hello", "{\"rates\": {}}", "<a><b></a>", "<a/>trailing", "\u{0}\u{1}"])
    func garbage(text: String) {
        #expect(throws: RatesError.self) { try parse(text) }
    }

    @Test("a refused document's message names the problem", arguments: [
        ("hello", "no XML element"),
        ("<a/>trailing", "content after its root element"),
        ("<a><b></a>", "end tag does not match"),
    ])
    func garbageMessages(text: String, expected: String) throws {
        let error = try #require(throws: RatesError.self) { try parse(text) }
        #expect(error.description.contains(expected))
    }

    @Test("an empty document is refused")
    func empty() {
        #expect(throws: RatesError.empty) { try parse("") }
    }

    @Test("a truncated document is refused", arguments: [40, 300, 500, 1000, BundledRates.xml.utf8.count - 12])
    func truncated(length: Int) {
        let cut = String(decoding: Data(BundledRates.xml.utf8).prefix(length), as: UTF8.self)
        #expect(throws: RatesError.self) { try parse(cut) }
    }

    @Test("a document missing its end tags is truncated, not half-applied")
    func missingEndTags() {
        let cut = bundledXML(replacing: "\t</Cube>\n\t</Cube>\n</gesmes:Envelope>\n", with: "")
        #expect(throws: RatesError.truncated(openElement: "Cube")) { try parse(cut) }
    }

    @Test("a document without a date is refused")
    func missingDate() {
        #expect(throws: RatesError.missingDate) {
            try parse(bundledXML(replacing: "<Cube time='2026-10-02'>", with: "<Cube>"))
        }
        #expect(throws: RatesError.missingDate) { try parse("<html><body>Service unavailable</body></html>") }
    }

    @Test("an invalid date is refused", arguments: ["2026-13-02", "2026-02-30", "02.10.2026", "", "2026-1-2"])
    func badDate(date: String) {
        #expect(throws: RatesError.badDate(date)) {
            try parse(bundledXML(replacing: "time='2026-10-02'", with: "time='\(date)'"))
        }
    }

    @Test("a bad rate is refused", arguments: ["abc", "-1.1225", "0", "0.0", "1.2abc", "", "1,1225", "1e3", " 1.1"])
    func badRate(rate: String) {
        #expect(throws: RatesError.badRate(currency: "USD", value: rate)) {
            try parse(bundledXML(replacing: "rate='1.1225'", with: "rate='\(rate)'"))
        }
    }

    @Test("a missing rate is refused")
    func missingRate() {
        #expect(throws: RatesError.badRate(currency: "USD", value: "")) {
            try parse(bundledXML(replacing: "rate='1.1225'", with: ""))
        }
    }

    @Test("a duplicate currency is refused")
    func duplicateCurrency() {
        let xml = bundledXML(replacing: "<Cube currency='JPY'", with: "<Cube currency='USD'")
        #expect(throws: RatesError.duplicateCurrency("USD")) { try parse(xml) }
    }

    @Test("invalid currency codes are refused", arguments: ["usd", "US", "EURO", "EUR", "U$D"])
    func badCurrency(code: String) {
        let xml = bundledXML(replacing: "currency='USD'", with: "currency='\(code)'")
        #expect { try parse(xml) } throws: { error in
            if case .badCurrency(code, _) = error as? RatesError { return true }
            return false
        }
    }

    @Test("a day without rates is refused")
    func noRates() {
        let xml = "<gesmes:Envelope xmlns:gesmes='g'><Cube><Cube time='2026-10-02'></Cube></Cube></gesmes:Envelope>"
        #expect(throws: RatesError.noRates(date: "2026-10-02")) { try parse(xml) }
    }

    @Test("several days are refused (the daily file has one)")
    func severalDays() {
        let xml = bundledXML(replacing: "\t</Cube>\n\t</Cube>",
                             with: "\t</Cube>\n<Cube time='2026-10-01'><Cube currency='USD' rate='1.12'/></Cube>\n\t</Cube>")
        #expect(throws: RatesError.multipleDays(2)) { try parse(xml) }
    }

    @Test("a rate outside the dated cube is refused")
    func rateOutsideDay() {
        let xml = bundledXML(replacing: "\t</Cube>\n\t</Cube>",
                             with: "\t</Cube>\n<Cube currency='XAU' rate='1'/>\n\t</Cube>")
        #expect(throws: RatesError.rateOutsideDay(currency: "XAU")) { try parse(xml) }
    }

    @Test("an oversized document is refused")
    func tooLarge() {
        let xml = String(repeating: " ", count: ECBRatesParser.sizeLimit + 1)
        #expect(throws: RatesError.tooLarge(bytes: ECBRatesParser.sizeLimit + 1, limit: ECBRatesParser.sizeLimit)) {
            try parse(xml)
        }
    }

    @Test("external entities are not resolved")
    func externalEntities() {
        let xml = "<!DOCTYPE a [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><a>&e;</a>"
        #expect(throws: RatesError.missingDate) { try parse(xml) }
    }

    @Test("the source is carried through")
    func source() throws {
        let rates = try parse(BundledRates.xml, source: .live(url: "http://x/rates.xml"))
        #expect(rates.source == .live(url: "http://x/rates.xml"))
    }

    @Test("every error message says what was wrong", arguments: [
        RatesError.empty, .tooLarge(bytes: 2, limit: 1), .notWellFormed("x"), .truncated(openElement: "Cube"),
        .missingDate, .badDate("x"), .multipleDays(2), .noRates(date: "d"), .rateOutsideDay(currency: "X"),
        .badCurrency("x", reason: "r"), .badRate(currency: "USD", value: "abc"), .duplicateCurrency("USD"),
        .fetchFailed("timeout"),
    ])
    func messages(error: RatesError) {
        #expect(error.description.count > 15)
    }
}

@Suite("Cross rates through EUR")
struct CrossRatesTests {
    @Test("EUR to a currency uses its rate")
    func fromEuro() throws {
        let conversion = try bundledRates().convert(100, from: eur, to: usd)
        #expect(conversion.rate == dec("1.1225"))
        #expect(conversion.result == dec("112.25"))
    }

    @Test("a currency to EUR divides by its rate")
    func toEuro() throws {
        let conversion = try bundledRates().convert(100, from: usd, to: eur)
        #expect(conversion.rate == 1 / dec("1.1225"))
        #expect(AmountFormatter.money(conversion.result) == "89.08")
        #expect(AmountFormatter.rate(conversion.rate) == "0.8909")
    }

    @Test("two non-euro currencies cross through EUR")
    func cross() throws {
        let rates = try bundledRates()
        let conversion = try rates.convert(100, from: usd, to: gbp)
        #expect(conversion.rate == dec("0.85033") / dec("1.1225"))
        #expect(AmountFormatter.money(conversion.result) == "75.75")
        #expect(AmountFormatter.money(try rates.convert(1, from: usd, to: jpy).result) == "157.67")
        #expect(conversion.date == "2026-10-02")
    }

    @Test("the same currency converts exactly", arguments: ["USD", "EUR", "JPY", "IDR"])
    func sameCurrency(code: String) throws {
        let conversion = try bundledRates().convert(dec("123.45"), from: currency(code), to: currency(code))
        #expect(conversion.rate == 1)
        #expect(conversion.result == dec("123.45"))
    }

    @Test("a round trip never gains money")
    func roundTrip() throws {
        let rates = try bundledRates()
        let there = try rates.convert(100, from: usd, to: jpy).result
        // 100 × 176.99 ÷ 1.1225 = 17699 ÷ 1.1225 has no finite decimal expansion; `Decimal` keeps
        // 38 significant digits, so the way back lands 1e-36 below 100, and money rounds down.
        #expect(there == dec("15767.4832962138084632516703786191536748"))
        let back = try rates.convert(there, from: jpy, to: usd).result
        #expect(back == dec("99.999999999999999999999999999999999999"))
        #expect(AmountFormatter.money(back) == "99.99")
    }

    @Test("a currency the rates do not quote is an error")
    func unknown() throws {
        let rates = try bundledRates()
        #expect(throws: ConversionError.unknownCurrency(currency("XAU"), date: "2026-10-02")) {
            try rates.convert(1, from: currency("XAU"), to: eur)
        }
    }
}
