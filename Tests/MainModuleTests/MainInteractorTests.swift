import DenKit
import Foundation
import Testing
@testable import MainModule

private final class OutputSpy: MainInteractorOutput {
    private(set) var loads: [RatesLoad] = []
    func interactorDidLoad(_ load: RatesLoad) { loads.append(load) }
}

@Suite("Main interactor")
struct MainInteractorTests {
    let url = "http://rates.test/eurofxref-daily.xml"

    private func interactor(_ settings: MockSettingsStore, _ fetcher: MockFetcher = MockFetcher(),
                            environment: [String: String] = [:]) -> (MainInteractor, OutputSpy) {
        let interactor = MainInteractor(settings: settings, memory: memory(settings), fetcher: fetcher, environment: environment)
        let spy = OutputSpy()
        interactor.output = spy
        interactor.loadOfflineRates()
        return (interactor, spy)
    }

    @Test("offline by default: the bundled snapshot, no banner, no network")
    func offlineByDefault() {
        let fetcher = MockFetcher()
        let (interactor, _) = interactor(MockSettingsStore(), fetcher)
        #expect(interactor.currentRates.rates.source == .bundled)
        #expect(interactor.currentRates.rates.date == "2026-10-02")
        #expect(interactor.currentRates.notice == nil)
        #expect(fetcher.requests.isEmpty)
    }

    @Test("reload with an empty rates_url stays offline and says so")
    func reloadWithoutURL() {
        let fetcher = MockFetcher()
        let (interactor, spy) = interactor(MockSettingsStore([SettingsKey.ratesURL: ""]), fetcher)
        interactor.reloadRates()
        #expect(fetcher.requests.isEmpty)
        #expect(spy.loads.count == 1)
        #expect(spy.loads.first?.notice == .offlineOnly)
        #expect(spy.loads.first?.rates.source == .bundled)
    }

    @Test("reload fetches the configured URL, applies and caches the rates")
    func reloadFetches() throws {
        let settings = MockSettingsStore([SettingsKey.ratesURL: url])
        let fetcher = MockFetcher.serving(otherDayXML)
        let (interactor, spy) = interactor(settings, fetcher)
        interactor.reloadRates()
        #expect(fetcher.requests == [url])
        let load = try #require(spy.loads.last)
        #expect(load.notice == .updated(url: url))
        #expect(load.rates.date == "2026-10-05")
        #expect(load.rates.source == .live(url: url))
        #expect(try interactor.convert(dec("1.2"), from: usd, to: eur).result == 1)
        #expect(settings.values[SettingsKey.ratesCache] != nil)

        // The next start works from the cache, offline.
        let (restarted, _) = self.interactor(settings, MockFetcher())
        #expect(restarted.currentRates.rates.date == "2026-10-05")
        #expect(restarted.currentRates.rates.source == .cached(url: url))
        #expect(restarted.currentRates.notice == nil)
    }

    @Test("HTTP fails with a cache: the cached rates, with a banner naming them")
    func failureFallsBackToCache() throws {
        let settings = MockSettingsStore([SettingsKey.ratesURL: url])
        let fetcher = MockFetcher.serving(otherDayXML)
        let (interactor, spy) = interactor(settings, fetcher)
        interactor.reloadRates()
        fetcher.respond = { _ in throw TestFailure("connection refused") }
        interactor.reloadRates()
        let load = try #require(spy.loads.last)
        #expect(load.rates.source == .cached(url: url))
        #expect(load.rates.date == "2026-10-05")
        guard case .sourceFailed(url, let reason) = load.notice else {
            Issue.record("expected a source failure, got \(String(describing: load.notice))")
            return
        }
        #expect(reason.contains("connection refused"))
        let banner = MainPresenter.notice(for: try #require(load.notice), rates: load.rates).text
        #expect(banner.contains("cached ECB rates"))
        #expect(banner.contains("2026-10-05"))
    }

    @Test("HTTP fails without a cache: the bundled snapshot, with a banner")
    func failureFallsBackToSnapshot() throws {
        let settings = MockSettingsStore([SettingsKey.ratesURL: url])
        let (interactor, spy) = interactor(settings)
        interactor.reloadRates()
        let load = try #require(spy.loads.last)
        #expect(load.rates.source == .bundled)
        #expect(load.rates.date == "2026-10-02")
        guard case .sourceFailed = load.notice else {
            Issue.record("expected a source failure")
            return
        }
        #expect(settings.values[SettingsKey.ratesCache] == nil)
    }

    @Test("garbage or partial documents from HTTP are not applied, nor cached", arguments: [
        "<html>Gateway timeout</html>",
        "not xml at all",
        String(BundledRates.xml.prefix(700)),
        bundledXML(replacing: "rate='176.99'", with: "rate='-176.99'"),
    ])
    func garbageNotApplied(body: String) throws {
        let settings = MockSettingsStore([SettingsKey.ratesURL: url])
        let fetcher = MockFetcher.serving(otherDayXML)
        let (interactor, spy) = interactor(settings, fetcher)
        interactor.reloadRates()
        let cached = settings.values[SettingsKey.ratesCache]
        fetcher.respond = { _ in Data(body.utf8) }
        interactor.reloadRates()
        let load = try #require(spy.loads.last)
        #expect(load.rates.date == "2026-10-05") // the earlier good rates, from the cache
        #expect(load.rates.perEuro[jpy] == dec("176.99"))
        #expect(settings.values[SettingsKey.ratesCache] == cached)
        guard case .sourceFailed = load.notice else {
            Issue.record("expected a source failure")
            return
        }
    }

    @Test("a URL that is not http(s) is reported without a request", arguments: ["ftp://x/rates.xml", "rates.xml", "http://"])
    func badURL(configured: String) throws {
        let fetcher = MockFetcher()
        let (interactor, spy) = interactor(MockSettingsStore([SettingsKey.ratesURL: configured]), fetcher)
        interactor.reloadRates()
        #expect(fetcher.requests.isEmpty)
        guard case .badURL(let problem) = try #require(spy.loads.last).notice else {
            Issue.record("expected a bad URL notice")
            return
        }
        #expect(problem.contains(configured))
    }

    @Test("the environment variable is used when storage has no URL; storage wins")
    func urlConfiguration() {
        let environment = [ratesURLEnvironmentVariable: "http://env.test/r.xml"]
        let (fromEnvironment, _) = interactor(MockSettingsStore(), environment: environment)
        #expect(fromEnvironment.configuredRatesURL() == "http://env.test/r.xml")
        let (fromStorage, _) = interactor(MockSettingsStore([SettingsKey.ratesURL: " http://store.test/r.xml "]),
                                          environment: environment)
        #expect(fromStorage.configuredRatesURL() == "http://store.test/r.xml")
        let (blank, _) = interactor(MockSettingsStore([SettingsKey.ratesURL: "  "]))
        #expect(blank.configuredRatesURL() == nil)
        let (emptyEnvironment, _) = interactor(MockSettingsStore(), environment: [ratesURLEnvironmentVariable: ""])
        #expect(emptyEnvironment.configuredRatesURL() == nil)
    }

    @Test("with nothing configured, Reload fetches the ECB's daily file (never at start)")
    func defaultURL() {
        let fetcher = MockFetcher.serving(otherDayXML)
        let (interactor, spy) = interactor(MockSettingsStore(), fetcher)
        #expect(fetcher.requests.isEmpty)
        interactor.reloadRates()
        #expect(fetcher.requests == ["https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"])
        #expect(spy.loads.last?.rates.date == "2026-10-05")
    }

    @Test("fetch_timeout bounds the fetch; a refused stored value uses the default")
    func fetchTimeout() {
        let fetcher = MockFetcher.serving(otherDayXML)
        let (interactor, _) = interactor(MockSettingsStore([SettingsKey.ratesURL: url, "config.fetch_timeout": "25"]), fetcher)
        interactor.reloadRates()
        #expect(fetcher.timeouts == [.seconds(25)])
        let (refused, _) = self.interactor(MockSettingsStore([SettingsKey.ratesURL: url, "config.fetch_timeout": "0"]), fetcher)
        refused.reloadRates()
        #expect(fetcher.timeouts.last == .seconds(10))
    }

    @Test("a stored rates_url the setting refuses is reported, not fetched and not replaced by the default")
    func refusedStoredURL() throws {
        let fetcher = MockFetcher()
        let (interactor, spy) = interactor(MockSettingsStore([SettingsKey.ratesURL: "not-a-url"]), fetcher)
        interactor.reloadRates()
        #expect(fetcher.requests.isEmpty)
        guard case .badURL(let problem) = try #require(spy.loads.last).notice else {
            Issue.record("expected a bad URL notice")
            return
        }
        #expect(problem.contains("not-a-url"))
    }

    @Test("an unreadable cache falls back to the snapshot with a banner", arguments: [
        "{not json", "{\"v\":1,\"url\":\"u\",\"date\":\"d\",\"document\":\"%%%\"}",
        "{\"v\":1,\"url\":\"u\",\"date\":\"d\",\"document\":\"\(Data("<a/>".utf8).base64EncodedString())\"}",
        "{\"v\":9,\"url\":\"u\",\"date\":\"d\",\"document\":\"\"}",
    ])
    func unreadableCache(entry: String) {
        let (interactor, _) = interactor(MockSettingsStore([SettingsKey.ratesCache: entry]))
        #expect(interactor.currentRates.rates.source == .bundled)
        guard case .cacheUnreadable = interactor.currentRates.notice else {
            Issue.record("expected a cache notice")
            return
        }
    }

    @Test("storage that cannot be read still gives the snapshot")
    func storageDown() {
        let settings = MockSettingsStore()
        settings.failReads = true
        let (interactor, _) = interactor(settings)
        #expect(interactor.currentRates.rates.source == .bundled)
        #expect(throws: RestoreProblem.self) { try interactor.lastConversion() }
        #expect(interactor.configuredRatesURL() == nil)
    }

    @Test("rates that cannot be cached are still applied, with a warning")
    func cacheWriteFails() throws {
        let settings = MockSettingsStore([SettingsKey.ratesURL: url])
        settings.failWrites = true
        let (interactor, spy) = interactor(settings, MockFetcher.serving(otherDayXML))
        interactor.reloadRates()
        let load = try #require(spy.loads.last)
        #expect(load.rates.date == "2026-10-05")
        guard case .notCached = load.notice else {
            Issue.record("expected a not-cached notice")
            return
        }
    }

    @Test("the last conversion survives a restart")
    func lastConversion() throws {
        let settings = MockSettingsStore()
        let (interactor, _) = interactor(settings)
        #expect(try interactor.lastConversion() == nil)
        try interactor.save(SavedConversion(from: gbp, to: jpy, amount: "12.5"))
        let (restarted, _) = self.interactor(settings)
        #expect(try restarted.lastConversion() == SavedConversion(from: gbp, to: jpy, amount: "12.5"))
    }

    @Test("a damaged saved conversion is reported, not silently dropped")
    func damagedLastConversion() {
        let (interactor, _) = interactor(MockSettingsStore([SettingsKey.lastConversion(of: testUser): "{\"from\":\"??\"}"]))
        #expect(throws: RestoreProblem.unreadable(reason: "the saved record is damaged")) { try interactor.lastConversion() }
    }

    @Test("holds its output weakly")
    func weakOutput() {
        let interactor = MainInteractor(settings: MockSettingsStore(), memory: memory(MockSettingsStore()), fetcher: MockFetcher())
        do {
            let spy = OutputSpy()
            interactor.output = spy
            #expect(interactor.output != nil)
        }
        #expect(interactor.output == nil)
        interactor.reloadRates() // no output: no crash
    }

    @Test("a broken bundled snapshot degrades to EUR only instead of crashing")
    func brokenSnapshot() {
        struct Broken: RatesService {
            func loadRates() throws(RatesError) -> ExchangeRates { throw .empty }
        }
        let interactor = MainInteractor(settings: MockSettingsStore(), memory: memory(MockSettingsStore()), fetcher: MockFetcher(), bundled: Broken())
        let load = interactor.loadOfflineRates()
        #expect(load.rates.currencies == [eur])
        guard case .noRatesAvailable = load.notice else {
            Issue.record("expected a no-rates notice")
            return
        }
    }
}

@Suite("Adapters to DenKit host clients")
struct HostAdapterTests {
    @Test("settings go to the key-value store; nil deletes")
    func settings() throws {
        let store = InMemoryKeyValueStore()
        let settings = KeyValueSettingsStore(store)
        try settings.set("x", forKey: "k")
        #expect(try store.get("k") == "x")
        #expect(try settings.string(forKey: "k") == "x")
        try settings.set(nil, forKey: "k")
        #expect(try settings.string(forKey: "k") == nil)
    }

    @Test("a 2xx answer gives the body; the request is bounded")
    func fetchOK() throws {
        let fetcher = HTTPRatesFetcher(HTTPFetcherStub { request in
            #expect(request.url == "http://r.test/x.xml")
            #expect(request.timeoutMilliseconds == 10_000)
            #expect(request.maxBytes == ECBRatesParser.sizeLimit)
            return HTTPResponse(status: 200, body: Data(BundledRates.xml.utf8))
        })
        #expect(try fetcher.get("http://r.test/x.xml", timeout: .seconds(10)) == Data(BundledRates.xml.utf8))
    }

    @Test("another status is an error naming it", arguments: [404, 500, 304])
    func fetchStatus(status: Int) {
        let fetcher = HTTPRatesFetcher(HTTPFetcherStub { _ in HTTPResponse(status: status, body: Data("oops".utf8)) })
        #expect(throws: HTTPStatusError(url: "http://r.test", status: status)) { try fetcher.get("http://r.test", timeout: .seconds(10)) }
    }

    @Test("the whole chain: HTTP stub → provider → interactor, storage in memory")
    func chain() throws {
        let store = InMemoryKeyValueStore([SettingsKey.ratesURL: "http://r.test/x.xml"])
        let interactor = MainInteractor(
            settings: KeyValueSettingsStore(store), memory: VisitorConversionMemory(settings: KeyValueSettingsStore(store), session: InMemorySessionValues()),
            fetcher: HTTPRatesFetcher(HTTPFetcherStub { _ in HTTPResponse(status: 200, body: Data(otherDayXML.utf8)) }))
        interactor.reloadRates()
        #expect(interactor.currentRates.rates.date == "2026-10-05")
        #expect(try store.get(SettingsKey.ratesCache) != nil)
    }

    @Test("without a host every call fails cleanly")
    func noHost() {
        let dependencies = MainDependencies.host(.unavailable)
        #expect(throws: (any Error).self) { try dependencies.settings.string(forKey: "k") }
        #expect(throws: (any Error).self) { try dependencies.fetcher.get("http://r.test", timeout: .seconds(1)) }
    }
}

/// The last conversion belongs to one visitor: their account when logged in, else their session.
@Suite("Main: each visitor's last conversion is their own")
struct MainConversionMemorySpec {
    private static func saving(_ conversion: SavedConversion, settings: MockSettingsStore, session: InMemorySessionValues) throws {
        let interactor = MainInteractor(settings: settings, memory: VisitorConversionMemory(settings: settings, session: session),
                                        fetcher: MockFetcher())
        try interactor.save(conversion)
    }

    private static func recalled(settings: MockSettingsStore, session: InMemorySessionValues) throws -> SavedConversion? {
        try MainInteractor(settings: settings, memory: VisitorConversionMemory(settings: settings, session: session),
                           fetcher: MockFetcher()).lastConversion()
    }

    @Test("a visitor who is not logged in keeps it in their session: a new visitor never sees it")
    func anonymousInSession() throws {
        let settings = MockSettingsStore()
        let first = InMemorySessionValues(), stranger = InMemorySessionValues()
        try Self.saving(SavedConversion(from: gbp, to: jpy, amount: "4242"), settings: settings, session: first)
        #expect(try Self.recalled(settings: settings, session: first)?.amount == "4242")
        #expect(try Self.recalled(settings: settings, session: stranger) == nil)
        #expect(settings.values.isEmpty, "nothing in the module's storage, which every visitor shares")
    }

    @Test("a logged-in account keeps it under its name: another account, or the same browser logged out, does not see it")
    func perAccount() throws {
        let settings = MockSettingsStore()
        let annLaptop = InMemorySessionValues([SessionLimits.userKey: "ann"])
        try Self.saving(SavedConversion(from: gbp, to: jpy, amount: "12.5"), settings: settings, session: annLaptop)
        let annPhone = InMemorySessionValues([SessionLimits.userKey: "ann"])
        #expect(try Self.recalled(settings: settings, session: annPhone)?.amount == "12.5", "it follows the account")
        #expect(try Self.recalled(settings: settings, session: InMemorySessionValues([SessionLimits.userKey: "bob"])) == nil)
        try annLaptop.delete(SessionLimits.userKey) // logged out
        #expect(try Self.recalled(settings: settings, session: annLaptop) == nil)
        #expect(settings.values.keys.sorted() == [SettingsKey.lastConversion(of: "ann")])
    }
}
