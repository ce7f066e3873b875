import DenKit
import Foundation
import Testing
@testable import MainModule

func dec(_ text: String) -> Decimal {
    Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
}

func currency(_ code: String) -> Currency { Currency(code: code)! }

let usd = currency("USD")
let eur = Currency.euro
let jpy = currency("JPY")
let gbp = currency("GBP")

/// The bundled snapshot, parsed.
func bundledRates() throws -> ExchangeRates {
    try BundledRatesProvider().loadRates()
}

/// The bundled document with `replacement` applied: for broken and alternative documents.
func bundledXML(replacing target: String, with replacement: String) -> String {
    precondition(BundledRates.xml.contains(target), "the bundled XML has no '\(target)'")
    return BundledRates.xml.replacingOccurrences(of: target, with: replacement)
}

/// A valid document for another day, with USD at 1.2000.
let otherDayXML = bundledXML(replacing: "time='2026-10-02'", with: "time='2026-10-05'")
    .replacingOccurrences(of: "rate='1.1225'", with: "rate='1.2000'")

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

final class MockSettingsStore: SettingsStore {
    var values: [String: String]
    var failReads = false
    var failWrites = false
    private(set) var writes: [String] = []

    init(_ values: [String: String] = [:]) {
        self.values = values
    }

    func string(forKey key: String) throws -> String? {
        if failReads { throw TestFailure("storage is down") }
        return values[key]
    }

    func set(_ value: String?, forKey key: String) throws {
        if failWrites { throw TestFailure("disk full") }
        writes.append(key)
        values[key] = value
    }
}

final class MockFetcher: RatesFetching {
    var respond: (String) throws -> Data
    private(set) var requests: [String] = []
    private(set) var timeouts: [Duration] = []

    init(_ respond: @escaping (String) throws -> Data = { _ in throw TestFailure("no network in tests") }) {
        self.respond = respond
    }

    static func serving(_ body: String) -> MockFetcher { MockFetcher { _ in Data(body.utf8) } }

    func get(_ url: String, timeout: Duration = .seconds(10)) throws -> Data {
        requests.append(url)
        timeouts.append(timeout)
        return try respond(url)
    }
}

final class MockInteractor: MainInteractorInput {
    var currentRates: RatesLoad
    var nextLoad: RatesLoad?
    weak var output: (any MainInteractorOutput)?
    var failSave = false
    private(set) var saved: [SavedConversion] = []
    private(set) var reloads = 0

    init(rates: ExchangeRates, notice: RatesNotice? = nil) {
        currentRates = RatesLoad(rates: rates, notice: notice)
    }

    func loadOfflineRates() -> RatesLoad { currentRates }

    func reloadRates() {
        reloads += 1
        if let nextLoad { currentRates = nextLoad }
        output?.interactorDidLoad(currentRates)
    }

    func convert(_ amount: Decimal, from: Currency, to: Currency) throws(ConversionError) -> Conversion {
        try currentRates.rates.convert(amount, from: from, to: to)
    }

    func lastConversion() -> SavedConversion? { saved.last }

    func save(_ conversion: SavedConversion) throws {
        if failSave { throw TestFailure("disk full") }
        saved.append(conversion)
    }
}

final class MockRouter: MainRouterInput {
    private(set) var aboutShown = 0
    func showAbout() { aboutShown += 1 }
}

final class MockPresenter: MainPresenterInput {
    private(set) var appeared = 0
    private(set) var triggered: [(MainAction, MainFormInput)] = []
    private(set) var changes: [MainFormInput] = []

    func viewDidAppear() { appeared += 1 }
    func didTrigger(_ action: MainAction, form: MainFormInput) { triggered.append((action, form)) }
    func didChange(form: MainFormInput) { changes.append(form) }
}

/// Records every view object the presenter displays.
final class MockMainView: MainViewInput {
    private(set) var displayed: [MainViewObject] = []

    func display(_ viewObject: MainViewObject) { displayed.append(viewObject) }

    /// The view object displayed last; a blank one (and a recorded issue) when none was.
    var shown: MainViewObject {
        guard let last = displayed.last else {
            Issue.record("the presenter displayed nothing")
            return .blank
        }
        return last
    }
}

func context(_ route: String, pattern: String = MainManifest.Routes.main, parameters: [String: String] = [:]) -> BuildContext {
    BuildContext(route: route, pattern: pattern, parameters: parameters, query: [:], host: .unavailable)
}

func conversionLink(amount: String, from: String, to: String) -> MainBuilder.ConversionLink {
    MainBuilder.ConversionLink(amount: amount, from: from, to: to)
}

/// The account these tests' visitor is logged in as: its last conversion is kept in the module's
/// storage under its name (`SettingsKey.lastConversion(of:)`).
let testUser = "ann"

/// A visitor logged in as `testUser` (or the session given), remembering in `settings`.
func memory(_ settings: MockSettingsStore, session: InMemorySessionValues = InMemorySessionValues([SessionLimits.userKey: testUser]))
    -> VisitorConversionMemory {
    VisitorConversionMemory(settings: settings, session: session)
}

func offlineDependencies(_ settings: MockSettingsStore = MockSettingsStore(),
                         fetcher: MockFetcher = MockFetcher()) -> MainDependencies {
    MainDependencies(settings: settings, memory: memory(settings), fetcher: fetcher)
}

extension Screen {
    func field(_ id: String) -> Field? { fields.first { $0.id == id } }

    var texts: [String] {
        elements.compactMap { if case .text(let text, _) = $0 { text } else { nil } }
    }

    var banners: [Banner] {
        elements.compactMap { if case .banner(let banner) = $0 { banner } else { nil } }
    }

    var buttons: [Button] {
        elements.compactMap { if case .button(let button) = $0 { button } else { nil } }
    }
}
