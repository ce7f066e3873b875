import Foundation

/// Rates fetched from an `eurofxref-daily.xml` document at `url` (e.g. the ECB's
/// `https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml`) through the host's `http`
/// service. Fetch failures and refused documents both throw; nothing is half-applied.
struct HTTPRatesProvider: RatesService {
    let url: String
    let fetcher: any RatesFetching
    var timeout: Duration = .seconds(10)
    /// Applied after parsing: a well-formed file that cannot be the ECB's is refused too.
    var plausibility: RatesPlausibility = .standard()

    func loadRates() throws(RatesError) -> ExchangeRates {
        try fetch().rates
    }

    /// The validated rates and the document they came from (kept for the cache).
    func fetch() throws(RatesError) -> (rates: ExchangeRates, document: Data) {
        if let problem = Self.problem(with: url) { throw .fetchFailed(problem) }
        let body: Data
        do {
            body = try fetcher.get(url, timeout: timeout)
        } catch {
            throw .fetchFailed(String(describing: error))
        }
        let rates = try ECBRatesParser.parse(body, source: .live(url: url))
        try plausibility.check(rates)
        return (rates, body)
    }

    /// Why `url` cannot be fetched, or nil when it is an absolute http(s) URL with a host.
    static func problem(with url: String) -> String? {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = parsed.host, !host.isEmpty
        else { return "'\(url)' is not an http:// or https:// URL" }
        return nil
    }
}
