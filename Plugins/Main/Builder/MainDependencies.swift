import DenKit
import Foundation

/// The services a Main stack needs; `host(_:)` gives the host-backed ones, tests pass mocks.
struct MainDependencies {
    var settings: any SettingsStore
    var memory: any ConversionMemory
    var fetcher: any RatesFetching
    var bundled: any RatesService = BundledRatesProvider()
    var environment: [String: String] = [:]
    var log: (any ModuleLog)?

    static func host(_ host: HostServices) -> MainDependencies {
        let settings = KeyValueSettingsStore(HostKeyValueStore(host))
        return MainDependencies(settings: settings, memory: VisitorConversionMemory(settings: settings, session: HostSessionValues(host)),
                         fetcher: HTTPRatesFetcher(HostHTTPClient(host)),
                         environment: ProcessInfo.processInfo.environment, log: HostLog(host))
    }
}
