/// The rates the module works with now, and why (when they are not what was asked for).
struct RatesLoad: Sendable, Equatable {
    let rates: ExchangeRates
    /// Set when the rates are a fallback or the load has something to report.
    let notice: RatesNotice?

    init(rates: ExchangeRates, notice: RatesNotice? = nil) {
        self.rates = rates
        self.notice = notice
    }
}

/// Something to tell the user about the rates in use.
enum RatesNotice: Sendable, Equatable {
    /// Fresh rates were fetched (and cached) from `url`.
    case updated(url: String)
    /// No rates URL is configured, so a reload used the offline rates.
    case offlineOnly
    /// The source at `url` failed for `reason`; the rates in `RatesLoad.rates` are the fallback.
    case sourceFailed(url: String, reason: String)
    /// The configured URL is not usable.
    case badURL(String)
    /// The cached rates could not be read back; the bundled snapshot is used.
    case cacheUnreadable(reason: String)
    /// Not even the bundled snapshot could be read; only EUR is available.
    case noRatesAvailable(reason: String)
    /// The fetched rates are fine but could not be cached for the next start.
    case notCached(reason: String)
}
