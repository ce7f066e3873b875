import Foundation

/// The offline rates: the ECB snapshot compiled into the plugin (`BundledRates.xml`).
struct BundledRatesProvider: RatesService {
    func loadRates() throws(RatesError) -> ExchangeRates {
        try ECBRatesParser.parse(Data(BundledRates.xml.utf8), source: .bundled)
    }
}
