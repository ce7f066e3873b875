import DenKit
import Foundation

/// What the presenter asks of the interactor: a facade over the rates sources and the settings.
protocol MainInteractorInput: AnyObject {
    /// The rates in use now (see `loadOfflineRates` and `reloadRates`).
    var currentRates: RatesLoad { get }
    /// Loads the rates available without the network: the cached download when there is one,
    /// else the bundled snapshot. Makes them current and returns them (no output call).
    @discardableResult func loadOfflineRates() -> RatesLoad
    /// Fetches the configured rates URL (if any); on failure falls back to the offline rates.
    /// Reports the outcome through `MainInteractorOutput.interactorDidLoad`.
    func reloadRates()
    /// Converts with the current rates (unrounded).
    func convert(_ amount: Decimal, from: Currency, to: Currency) throws(ConversionError) -> Conversion
    /// The conversion saved by `save`, nil when none was saved; throws when one was saved but
    /// cannot be read, so the user can be told instead of silently getting the default.
    func lastConversion() throws(RestoreProblem) -> SavedConversion?
    /// Stores the conversion so it is restored on the next start.
    func save(_ conversion: SavedConversion) throws
}

/// What the interactor tells the presenter (held weakly by the interactor).
protocol MainInteractorOutput: AnyObject {
    func interactorDidLoad(_ load: RatesLoad)
}
