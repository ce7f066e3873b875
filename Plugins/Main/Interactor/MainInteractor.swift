import DenKit
import Foundation

/// The Main module's logic: which rates to use (HTTP → cache → bundled snapshot), cross-rate
/// conversion, and the saved last conversion. Knows nothing of display.
///
/// Rates policy:
/// - Offline by default: the module starts with the cached download (if any) or the bundled
///   ECB snapshot, and never touches the network on its own.
/// - "Reload rates" fetches `config.rates_url` (storage key; else the `DEN_MAIN_RATES_URL`
///   environment variable). Valid rates become current and are cached with their date; any
///   failure (network, refused document, bad URL) keeps working from the cache or the snapshot
///   and says which rates and date are used. Without a configured URL, reload re-reads the
///   offline rates and says so.
final class MainInteractor: MainInteractorInput {
    weak var output: (any MainInteractorOutput)?

    private let settings: any SettingsStore
    private let fetcher: any RatesFetching
    private let bundled: any RatesService
    private let environment: [String: String]
    private let log: (any ModuleLog)?
    private(set) var currentRates: RatesLoad

    init(settings: any SettingsStore, fetcher: any RatesFetching, bundled: any RatesService = BundledRatesProvider(),
         environment: [String: String] = [:], log: (any ModuleLog)? = nil) {
        self.settings = settings
        self.fetcher = fetcher
        self.bundled = bundled
        self.environment = environment
        self.log = log
        self.currentRates = RatesLoad(rates: ExchangeRates(date: "", perEuro: [:], source: .bundled))
    }

    @discardableResult
    func loadOfflineRates() -> RatesLoad {
        currentRates = offlineRates()
        return currentRates
    }

    func reloadRates() {
        let load = fetchRates()
        currentRates = load
        output?.interactorDidLoad(load)
    }

    func convert(_ amount: Decimal, from: Currency, to: Currency) throws(ConversionError) -> Conversion {
        try currentRates.rates.convert(amount, from: from, to: to)
    }

    func lastConversion() -> SavedConversion? {
        let stored: String?
        do {
            stored = try settings.string(forKey: SettingsKey.lastConversion)
        } catch {
            // Storage failed (not the value): say so on the screen instead of silently showing defaults.
            log?.log(.warning, "could not read the saved conversion: \(error)")
            currentRates = RatesLoad(rates: currentRates.rates, notice: .savedValuesUnreadable(reason: String(describing: error)))
            return nil
        }
        do {
            guard let text = stored else { return nil }
            return try JSONDecoder().decode(SavedConversion.self, from: Data(text.utf8))
        } catch {
            log?.log(.warning, "ignoring the saved conversion: \(error)")
            return nil
        }
    }

    func save(_ conversion: SavedConversion) throws {
        let data = try JSONEncoder().encode(conversion)
        try settings.set(String(decoding: data, as: UTF8.self), forKey: SettingsKey.lastConversion)
    }

    /// The configured rates URL: storage `config.rates_url`, else `DEN_MAIN_RATES_URL`; nil = offline.
    func configuredRatesURL() -> String? {
        var stored: String?
        do {
            stored = try settings.string(forKey: SettingsKey.ratesURL)
        } catch {
            log?.log(.warning, "could not read \(SettingsKey.ratesURL): \(error)")
        }
        for candidate in [stored, environment[ratesURLEnvironmentVariable]] {
            if let url = candidate?.trimmingWhitespace(), !url.isEmpty { return url }
        }
        return nil
    }

    // MARK: - Sources

    private func fetchRates() -> RatesLoad {
        guard let url = configuredRatesURL() else {
            let offline = offlineRates()
            return RatesLoad(rates: offline.rates, notice: offline.notice ?? .offlineOnly)
        }
        if let problem = HTTPRatesProvider.problem(with: url) {
            return RatesLoad(rates: offlineRates().rates, notice: .badURL(problem))
        }
        do {
            let fetched = try HTTPRatesProvider(url: url, fetcher: fetcher).fetch()
            do {
                try RatesCache(store: settings).save(document: fetched.document, rates: fetched.rates, url: url)
            } catch {
                log?.log(.warning, "could not cache the rates from \(url): \(error)")
                return RatesLoad(rates: fetched.rates, notice: .notCached(reason: String(describing: error)))
            }
            return RatesLoad(rates: fetched.rates, notice: .updated(url: url))
        } catch {
            log?.log(.warning, "rates from \(url) refused: \(error)")
            return RatesLoad(rates: offlineRates().rates, notice: .sourceFailed(url: url, reason: String(describing: error)))
        }
    }

    /// Cached download, else the bundled snapshot; never throws.
    private func offlineRates() -> RatesLoad {
        var cacheProblem: String?
        do {
            if let cached = try RatesCache(store: settings).load() { return RatesLoad(rates: cached) }
        } catch {
            cacheProblem = String(describing: error)
            log?.log(.warning, "ignoring the cached rates: \(error)")
        }
        do {
            let rates = try bundled.loadRates()
            return RatesLoad(rates: rates, notice: cacheProblem.map { .cacheUnreadable(reason: $0) })
        } catch {
            // Only reachable with a broken build of the snapshot (the tests parse it): keep
            // working with EUR alone rather than crash the host.
            log?.log(.error, "the bundled rates do not parse: \(error)")
            return RatesLoad(rates: ExchangeRates(date: "unknown", perEuro: [:], source: .bundled),
                             notice: .noRatesAvailable(reason: String(describing: error)))
        }
    }
}
