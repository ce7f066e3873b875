import DenKit
import Foundation

// The services the interactor needs, as the module's own small protocols: tests use mocks, and
// thin adapters (Services/HostAdapters.swift) connect them to the host's clients.

/// Durable key/value strings in the module's own storage namespace.
protocol SettingsStore: AnyObject {
    func string(forKey key: String) throws -> String?
    /// Stores `value`, or removes the key when `value` is nil.
    func set(_ value: String?, forKey key: String) throws
}

/// Where the visitor's last conversion is kept, as text: never shared between visitors (the
/// host adapter keeps it per account when someone is logged in, else in the UI session).
protocol ConversionMemory: AnyObject {
    func recall() throws -> String?
    func keep(_ text: String) throws
}

/// An HTTP GET returning the body of a 2xx answer within `timeout`; throws for anything else
/// (the message says why, in words a user can act on).
protocol RatesFetching {
    func get(_ url: String, timeout: Duration) throws -> Data
}

/// The storage keys of the Main module.
enum SettingsKey {
    /// The URL of an `eurofxref-daily.xml` document to fetch on "Reload rates" (`rates_url` in Manifest/module.json).
    static let ratesURL = ModuleSettings.key(MainManifest.Settings.ratesUrl.name)
    /// `SavedConversion` as JSON: the last from/to/amount, restored on the next start. A session
    /// value of a visitor who is not logged in (`session.*`: a browser's session, the terminal's).
    static let lastConversion = "last_conversion"

    /// The same for a logged-in account, in the module's storage: it follows the account to
    /// every browser and host.
    static func lastConversion(of user: String) -> String {
        "user/\(user)/last_conversion"
    }
    /// `RatesCache.Entry` as JSON: the last rates fetched over HTTP.
    static let ratesCache = "rates.cache"
}

/// The environment variable read when `config.rates_url` is not set in storage (empty: offline).
let ratesURLEnvironmentVariable = "DEN_MAIN_RATES_URL"
