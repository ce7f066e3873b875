import DenKit
import Foundation

/// The Main module's logic: which rates to use (HTTP → cache → bundled snapshot), cross-rate
/// conversion, and the saved last conversion. Knows nothing of display.
///
/// Rates policy:
/// - Offline by default: the module starts with the cached download (if any) or the bundled
///   ECB snapshot, and never touches the network on its own.
/// - "Reload rates" fetches the `rates_url` setting (else the `DEN_MAIN_RATES_URL` environment
///   variable, else the ECB's daily file) within `fetch_timeout` seconds. Valid rates become
///   current and are cached with their date; any failure (network, refused document, bad URL)
///   keeps working from the cache or the snapshot and says which rates and date are used. With
///   an empty URL, reload re-reads the offline rates and says so.
final class MainInteractor: MainInteractorInput, ModuleInteractor {
    weak var output: (any MainInteractorOutput)?

    private let settings: any SettingsStore
    private let memory: any ConversionMemory
    private let fetcher: any RatesFetching
    private let bundled: any RatesService
    private let environment: [String: String]
    private let log: (any ModuleLog)?
    private(set) var currentRates: RatesLoad

    init(settings: any SettingsStore, memory: any ConversionMemory, fetcher: any RatesFetching,
         bundled: any RatesService = BundledRatesProvider(), environment: [String: String] = [:], log: (any ModuleLog)? = nil) {
        self.settings = settings
        self.memory = memory
        self.fetcher = fetcher
        self.bundled = bundled
        self.environment = environment
        self.log = log
        self.currentRates = RatesLoad(rates: ExchangeRates(date: "", perEuro: [:], source: .bundled))
    }

    /// Where Reload fetches from (`ratesSource()`).
    enum RatesSourceChoice: Equatable {
        case url(String)
        case offline
        case refused(String)
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

    func lastConversion() throws(RestoreProblem) -> SavedConversion? {
        let text: String?
        do {
            text = try memory.recall()
        } catch {
            log?.log(.warning, "could not read the saved conversion: \(error)")
            throw .unreadable(reason: "the storage could not be read (\(error))")
        }
        guard let text else { return nil }
        do {
            return try JSONDecoder().decode(SavedConversion.self, from: Data(text.utf8))
        } catch {
            log?.log(.warning, "the saved conversion is damaged: \(error)")
            throw .unreadable(reason: "the saved record is damaged")
        }
    }

    func save(_ conversion: SavedConversion) throws {
        let data = try JSONEncoder().encode(conversion)
        try memory.keep(String(decoding: data, as: UTF8.self))
    }

    /// Where Reload fetches from: the `rates_url` setting when one is stored, else
    /// `DEN_MAIN_RATES_URL` when that is set, else the declared default (the ECB's daily file).
    /// An empty value means offline. A stored value the setting's rule refuses is reported,
    /// never fetched.
    func ratesSource() -> RatesSourceChoice {
        let value = settingsReader.value(MainManifest.Settings.ratesUrl.name)
        // A stored value that is refused (or unreadable) is the user's choice gone wrong: say
        // so rather than quietly fetch the default from the network.
        if let problem = value.problem { return .refused(problem) }
        let url: String
        if !value.isDefault {
            url = value.value
        } else if let fromEnvironment = environment[ratesURLEnvironmentVariable] {
            url = fromEnvironment.trimmingWhitespace()
        } else {
            url = value.value
        }
        return url.isEmpty ? .offline : .url(url)
    }

    /// The configured rates URL, nil when offline or refused.
    func configuredRatesURL() -> String? {
        if case .url(let url) = ratesSource() { return url }
        return nil
    }

    /// Seconds Reload waits (`fetch_timeout`); a refused stored value falls back to the default.
    func fetchTimeout() -> Duration {
        let value = settingsReader.value(MainManifest.Settings.fetchTimeout.name)
        if let problem = value.problem { log?.log(.warning, problem) }
        return .seconds(Int(value.value) ?? 10)
    }

    private var settingsReader: ModuleSettings {
        let settings = settings
        return ModuleSettings(MainManifest.Settings.all) { try settings.string(forKey: $0) }
    }

    // MARK: - Sources

    private func fetchRates() -> RatesLoad {
        let url: String
        switch ratesSource() {
        case .offline:
            let offline = offlineRates()
            return RatesLoad(rates: offline.rates, notice: offline.notice ?? .offlineOnly)
        case .refused(let problem):
            return RatesLoad(rates: offlineRates().rates, notice: .badURL(problem))
        case .url(let configured):
            url = configured
        }
        if let problem = HTTPRatesProvider.problem(with: url) {
            return RatesLoad(rates: offlineRates().rates, notice: .badURL(problem))
        }
        do {
            let fetched = try HTTPRatesProvider(url: url, fetcher: fetcher, timeout: fetchTimeout()).fetch()
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
