import DenKit
import Foundation

/// The services a Main stack needs; `host(_:)` gives the host-backed ones, tests pass mocks.
struct MainDependencies {
    var settings: any SettingsStore
    var fetcher: any RatesFetching
    var bundled: any RatesService = BundledRatesProvider()
    var environment: [String: String] = [:]
    var log: (any ModuleLog)?

    static func host(_ host: HostServices) -> MainDependencies {
        MainDependencies(settings: KeyValueSettingsStore(HostKeyValueStore(host)),
                         fetcher: HTTPRatesFetcher(HostHTTPClient(host)),
                         environment: ProcessInfo.processInfo.environment, log: HostLog(host))
    }
}
