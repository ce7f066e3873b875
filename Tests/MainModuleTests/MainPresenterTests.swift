import DenKit
import Foundation
import Testing
@testable import MainModule

@Suite("Main presenter")
struct MainPresenterTests {
    let interactor: MockInteractor
    let router = MockRouter()
    let view = MockMainView()
    let presenter: MainPresenter

    init() throws {
        interactor = MockInteractor(rates: try bundledRates())
        presenter = MainPresenter(interactor: interactor, router: router,
                                  initial: SavedConversion(from: usd, to: eur, amount: "100"),
                                  amount: try AmountInput.parse("100"), rates: interactor.currentRates)
        interactor.output = presenter
        presenter.view = view
    }

    @Test("shows the currencies, the amount, the result and the rate line")
    func initialViewObject() {
        presenter.viewDidAppear()
        let object = view.shown
        #expect(object.from.selected == "USD")
        #expect(object.to.selected == "EUR")
        #expect(object.from.options.count == 30)
        #expect(object.from.options == object.from.options.sorted())
        #expect(object.to.options == object.from.options)
        #expect(object.amount.text == "100")
        #expect(object.amount.error == nil)
        #expect(object.result == "100 USD = 89.08 EUR")
        #expect(object.rateLine == "1 USD = 0.890868 EUR · ECB 2026-10-02 · results rounded down to the cent")
        #expect(object.sourceLine.contains("bundled"))
        #expect(object.notices.isEmpty)
        #expect(object.actions.map(\.id) == ["convert", "swap", "reload", "info"])
        #expect(object.actions.map(\.label).contains("Reload rates"))
    }

    @Test("convert applies the submitted fields and saves them")
    func convert() {
        presenter.didTrigger(.convert, form: MainFormInput(from: "gbp", to: "JPY", amount: "12,5"))
        let object = view.shown
        #expect(object.from.selected == "GBP")
        #expect(object.to.selected == "JPY")
        #expect(object.amount.text == "12.5")
        #expect(object.result.hasPrefix("12.5 GBP = "))
        #expect(interactor.saved == [SavedConversion(from: gbp, to: jpy, amount: "12.5")])
    }

    @Test("a refused amount keeps the previous value and says what is allowed", arguments: ["0.11.2", "00", "12a"])
    func badAmount(input: String) {
        presenter.didTrigger(.convert, form: MainFormInput(amount: input))
        let object = view.shown
        #expect(object.amount.text == "100")
        #expect(object.result == "100 USD = 89.08 EUR")
        #expect(object.amount.error?.contains("'\(input)' was not accepted") == true)
        #expect(object.amount.error?.contains("stays 100") == true)
    }

    @Test("a single leading zero is dropped, a second one refused")
    func leadingZero() {
        presenter.didTrigger(.convert, form: MainFormInput(amount: "05"))
        #expect(view.shown.amount.text == "5")
        #expect(view.shown.amount.error == nil)
        #expect(view.shown.result == "5 USD = 4.45 EUR")
        presenter.didTrigger(.convert, form: MainFormInput(amount: "005"))
        #expect(view.shown.amount.text == "5")
        #expect(view.shown.amount.error
            == "'005' was not accepted: no second leading zero: write 0, 0.5 or 5, not 00. The amount stays 5.")
        #expect(interactor.saved.map(\.amount) == ["5", "5"])
    }

    @Test("the field error goes away with the next valid input")
    func errorClears() {
        presenter.didTrigger(.convert, form: MainFormInput(amount: "x"))
        presenter.didTrigger(.convert, form: MainFormInput(amount: "3"))
        #expect(view.shown.amount.error == nil)
        #expect(view.shown.amount.text == "3")
    }

    @Test("empty amount converts 0")
    func emptyAmount() {
        presenter.didTrigger(.convert, form: MainFormInput(amount: ""))
        #expect(view.shown.result == "0 USD = 0 EUR")
        #expect(view.shown.amount.text == "")
    }

    @Test("an unknown currency keeps the previous one and lists the valid codes")
    func unknownCurrency() {
        presenter.didTrigger(.convert, form: MainFormInput(from: "XYZ", to: "usd"))
        let object = view.shown
        #expect(object.from.selected == "USD")
        #expect(object.to.selected == "USD")
        #expect(object.notices.count == 1)
        #expect(object.notices.first?.kind == .error)
        #expect(object.notices.first?.text.contains("'XYZ'") == true)
        #expect(object.notices.first?.text.contains("AUD, BRL") == true)
    }

    @Test("swap swaps the currencies after applying the fields, and saves")
    func swapCurrencies() {
        presenter.didTrigger(.swap, form: MainFormInput(from: "USD", to: "JPY", amount: "2"))
        let object = view.shown
        #expect(object.from.selected == "JPY")
        #expect(object.to.selected == "USD")
        #expect(interactor.saved.last == SavedConversion(from: jpy, to: usd, amount: "2"))
    }

    @Test("reload asks the interactor and shows which rates are used")
    func reload() throws {
        let rates = try bundledRates()
        interactor.nextLoad = RatesLoad(rates: rates, notice: .sourceFailed(url: "http://rates.test/x.xml", reason: "timed out"))
        presenter.didTrigger(.reload, form: MainFormInput(amount: "7"))
        #expect(interactor.reloads == 1)
        let object = view.shown
        #expect(object.amount.text == "7")
        let notice = try #require(object.notices.first)
        #expect(notice.kind == .warning)
        #expect(notice.text.contains("http://rates.test/x.xml"))
        #expect(notice.text.contains("timed out"))
        #expect(notice.text.contains("bundled ECB snapshot"))
        #expect(notice.text.contains("2026-10-02"))
    }

    @Test("a banner describes the latest action only: the reload's notice goes with the next action",
          arguments: [MainAction.convert, .swap, .info])
    func ratesBannerGoes(next: MainAction) throws {
        interactor.nextLoad = RatesLoad(rates: try bundledRates(), notice: .offlineOnly)
        presenter.didTrigger(.reload, form: MainFormInput())
        #expect(view.shown.notices.first?.text.contains("stay offline") == true)
        presenter.didTrigger(next, form: MainFormInput())
        #expect(view.shown.notices.isEmpty)
    }

    @Test("coming back to the screen clears the last action's banner; the first appear keeps the start's")
    func appearClears() throws {
        let interactor = MockInteractor(rates: try bundledRates(), notice: .cacheUnreadable(reason: "damaged"))
        let presenter = MainPresenter(interactor: interactor, router: MockRouter(),
                                      initial: SavedConversion(from: usd, to: eur, amount: "100"),
                                      amount: try AmountInput.parse("100"), rates: interactor.currentRates)
        let view = MockMainView()
        presenter.view = view
        presenter.viewDidAppear()
        #expect(view.shown.notices.count == 1)
        presenter.viewDidAppear()
        #expect(view.shown.notices.isEmpty)
    }

    @Test("info goes to the router")
    func info() {
        presenter.didTrigger(.info, form: MainFormInput())
        #expect(router.aboutShown == 1)
        #expect(interactor.reloads == 0)
    }

    @Test("reload and info also save the submitted fields for the next start", arguments: [MainAction.reload, .info])
    func reloadAndInfoSave(action: MainAction) {
        presenter.didTrigger(action, form: MainFormInput(from: "gbp", to: "JPY", amount: "12,5"))
        #expect(interactor.saved == [SavedConversion(from: gbp, to: jpy, amount: "12.5")])
    }

    @Test("reload saves the choices before it asks for new rates")
    func reloadSavesFirst() {
        presenter.didTrigger(.reload, form: MainFormInput(amount: "7"))
        #expect(interactor.saved == [SavedConversion(from: usd, to: eur, amount: "7")])
        #expect(interactor.reloads == 1)
    }

    @Test("every action saves only valid values: refused fields keep the previous ones", arguments: [
        (MainAction.convert, "USD", "JPY"), (.swap, "JPY", "USD"), (.reload, "USD", "JPY"), (.info, "USD", "JPY"),
    ])
    func savesOnlyValidValues(action: MainAction, from: String, to: String) {
        presenter.didTrigger(action, form: MainFormInput(from: "XYZ", to: "jpy", amount: "00"))
        #expect(interactor.saved == [SavedConversion(from: currency(from), to: currency(to), amount: "100")])
    }

    @Test("a failed save on info is a warning, and About still opens")
    func failedSaveOnInfo() {
        interactor.failSave = true
        presenter.didTrigger(.info, form: MainFormInput(amount: "5"))
        #expect(router.aboutShown == 1)
        #expect(view.shown.notices.contains { $0.kind == .warning && $0.text.contains("could not be saved") })
    }

    @Test("an unknown action saves nothing")
    func unknownActionSavesNothing() {
        presenter.didTrigger(.unknown("launch"), form: MainFormInput(amount: "5"))
        #expect(interactor.saved.isEmpty)
    }

    @Test("an unknown action is reported, not a crash")
    func unknownAction() {
        presenter.didTrigger(.unknown("launch"), form: MainFormInput())
        #expect(view.shown.notices.first?.text.contains("'launch'") == true)
        #expect(router.aboutShown == 0)
    }

    @Test("a failed save is a warning, the conversion still shows")
    func failedSave() {
        interactor.failSave = true
        presenter.didTrigger(.convert, form: MainFormInput(amount: "5"))
        let object = view.shown
        #expect(object.amount.text == "5")
        #expect(object.notices.contains { $0.kind == .warning && $0.text.contains("could not be saved") })
    }

    @Test("messages of one event are gone at the next")
    func eventNoticesAreTransient() {
        presenter.didTrigger(.convert, form: MainFormInput(from: "XYZ"))
        presenter.viewDidAppear()
        #expect(view.shown.notices.isEmpty)
    }

    @Test("rates banners for every notice name the rates and date used", arguments: [
        RatesNotice.offlineOnly, .sourceFailed(url: "u", reason: "r"), .badURL("bad"), .cacheUnreadable(reason: "r"),
    ])
    func fallbackNotices(notice: RatesNotice) throws {
        let text = MainPresenter.notice(for: notice, rates: try bundledRates()).text
        #expect(text.contains("bundled ECB snapshot"))
        #expect(text.contains("2026-10-02"))
    }

    @Test("a currency missing from new rates is reported")
    func currencyDisappears() throws {
        let fewer = ExchangeRates(date: "2026-10-05", perEuro: [jpy: dec("170")], source: .live(url: "http://r"))
        interactor.nextLoad = RatesLoad(rates: fewer, notice: .updated(url: "http://r"))
        presenter.didTrigger(.reload, form: MainFormInput())
        let object = view.shown
        #expect(object.from.options == ["EUR", "JPY"])
        #expect(object.notices.contains { $0.kind == .error && $0.text.contains("USD is not quoted") })
        #expect(object.notices.contains { $0.kind == .success })
    }

    @Test("state restore validates before applying")
    func restoreValidates() throws {
        #expect(throws: ModuleError.self) { try presenter.restore(SavedConversion(from: currency("XAU"), to: eur, amount: "1")) }
        #expect(throws: ModuleError.self) { try presenter.restore(SavedConversion(from: jpy, to: eur, amount: "00")) }
        #expect(presenter.state == SavedConversion(from: usd, to: eur, amount: "100"))
        try presenter.restore(SavedConversion(from: jpy, to: gbp, amount: "3.5"))
        #expect(presenter.state == SavedConversion(from: jpy, to: gbp, amount: "3.5"))
    }
}

@Suite("Main view")
struct MainViewTests {
    private func sampleObject() throws -> MainViewObject {
        let interactor = MockInteractor(rates: try bundledRates(), notice: .offlineOnly)
        let presenter = MainPresenter(interactor: interactor, router: MockRouter(),
                                      initial: SavedConversion(from: usd, to: eur, amount: "100"),
                                      amount: try AmountInput.parse("100"), rates: interactor.currentRates)
        let view = MockMainView()
        presenter.view = view
        presenter.viewDidAppear()
        return view.shown
    }

    @Test("turns the view object into a screen")
    func screen() throws {
        let screen = MainView.screen(for: try sampleObject())
        #expect(screen.title == "Currency converter")
        if case .heading = screen.elements.first {} else { Issue.record("first element should be a heading") }
        let from = try #require(screen.field("from"))
        #expect(from.kind == .choice)
        #expect(from.value == "USD")
        #expect(from.options.count == 30)
        #expect(screen.field("to")?.kind == .choice)
        #expect(screen.field("amount")?.kind == .number)
        #expect(screen.field("amount")?.value == "100")
        #expect(screen.texts.contains("100 USD = 89.08 EUR"))
        #expect(screen.texts.contains("1 USD = 0.890868 EUR · ECB 2026-10-02 · results rounded down to the cent"))
        #expect(screen.buttons.map(\.id) == ["convert", "swap", "reload", "info"])
        #expect(screen.buttons.first?.role == .primary)
        #expect(screen.banners.first?.kind == .info)
    }

    @Test("forwards events to the presenter")
    func forwardsEvents() throws {
        let presenter = MockPresenter()
        let view = MainView(presenter: presenter)
        view.handle(.appear)
        view.handle(.action(id: "swap", fields: ["from": "USD", "to": "EUR", "amount": "3", "other": "x"]))
        view.handle(.action(id: "nope", fields: [:]))
        #expect(presenter.appeared == 1)
        #expect(presenter.triggered.count == 2)
        #expect(presenter.triggered[0].0 == .swap)
        #expect(presenter.triggered[0].1 == MainFormInput(from: "USD", to: "EUR", amount: "3"))
        #expect(presenter.triggered[1].0 == .unknown("nope"))
        #expect(presenter.triggered[1].1 == MainFormInput())
    }

    @Test("is passive: draws the view object displayed last, and nothing before the first")
    func drawsWhatIsDisplayed() throws {
        let view = MainView(presenter: MockPresenter())
        #expect(view.screen == MainView.screen(for: .blank))
        let object = try sampleObject()
        view.display(object)
        #expect(view.screen == MainView.screen(for: object))
        #expect(view.screen.texts.contains("100 USD = 89.08 EUR"))
    }

    @Test("every presenter input ends with a push into the view")
    func everyInputPushes() throws {
        let interactor = MockInteractor(rates: try bundledRates())
        let presenter = MainPresenter(interactor: interactor, router: MockRouter(),
                                      initial: SavedConversion(from: usd, to: eur, amount: "100"),
                                      amount: try AmountInput.parse("100"), rates: interactor.currentRates)
        let view = MockMainView()
        presenter.view = view
        presenter.viewDidAppear()
        presenter.didChange(form: MainFormInput(amount: "2"))
        presenter.didTrigger(.convert, form: MainFormInput(amount: "3"))
        presenter.interactorDidLoad(interactor.currentRates)
        try presenter.restore(SavedConversion(from: jpy, to: gbp, amount: "4"))
        #expect(view.displayed.map(\.amount.text) == ["100", "2", "3", "3", "4"])
    }

    @Test("the screen survives the wire format")
    func wire() throws {
        let screen = MainView.screen(for: try sampleObject())
        let decoded = try WireFormat.decode(Screen.self, from: WireFormat.encode(screen))
        #expect(decoded == screen)
    }
}

@Suite("Main router")
struct MainRouterTests {
    @Test("info navigates to about by route string")
    func about() {
        let navigation = Navigation()
        let router = MainRouter(navigation: navigation)
        router.showAbout()
        #expect(navigation.drain() == [.navigate("about")])
        #expect(navigation.drain().isEmpty)
    }

    @Test("holds the view weakly")
    func weakView() throws {
        let router = MainRouter(navigation: Navigation())
        do {
            let view = MainView(presenter: MockPresenter())
            router.view = view
            #expect(router.view != nil)
        }
        #expect(router.view == nil)
    }
}
