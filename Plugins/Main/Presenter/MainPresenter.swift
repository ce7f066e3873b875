import DenKit
import Foundation

/// Turns the interactor's data into `MainViewObject`s, pushed into the view at the end of every
/// input (appear, action, change, the interactor's answer, a restore), and sends each user
/// action to the interactor (convert, reload) or the router (info).
///
/// Form handling: every action first applies the submitted fields. A refused amount keeps the
/// previous valid amount and shows why on the field; an unknown currency keeps the previous
/// currency and shows a banner. Every action (convert, swap, reload, info) then saves
/// from/to/amount for the next start; only valid values ever reach `persist()`, because refused
/// input is never applied.
final class MainPresenter: MainPresenterInput, MainInteractorOutput, ModulePresenter {
    weak var view: (any MainViewInput)?
    private let interactor: any MainInteractorInput
    private let router: any MainRouterInput

    private(set) var from: Currency
    private(set) var to: Currency
    private(set) var amount: AmountInput.Amount
    private var rates: RatesLoad
    // Banners describe the latest action only: each of these is cleared when the next action
    // (or a return to this screen) begins, so "No rates URL" never outlives the reload that said it.
    /// What the rates load of the latest action (or of the start) has to say.
    private var ratesNotice: RatesNotice?
    /// Why the saved conversion was not restored; shown on the first screen only.
    private var restoreProblem: RestoreProblem?
    /// Messages about the latest event (input errors, save failures).
    private var eventNotices: [MainViewObject.Notice] = []
    private var amountError: String?
    /// The host sends `appear` right after the build: that first one keeps the start's banners.
    private var hasAppeared = false

    init(interactor: any MainInteractorInput, router: any MainRouterInput, initial: SavedConversion,
         amount: AmountInput.Amount, rates: RatesLoad, restoreProblem: RestoreProblem? = nil) {
        self.interactor = interactor
        self.router = router
        self.from = initial.from
        self.to = initial.to
        self.amount = amount
        self.rates = rates
        self.ratesNotice = rates.notice
        self.restoreProblem = restoreProblem
    }

    // MARK: - MainPresenterInput

    func viewDidAppear() {
        if hasAppeared {
            clearLatestAction()
        } else {
            hasAppeared = true
        }
        show()
    }

    func didTrigger(_ action: MainAction, form: MainFormInput) {
        hasAppeared = true
        clearLatestAction()
        switch action {
        case .convert:
            apply(form)
            persist()
        case .swap:
            apply(form)
            swap(&from, &to)
            persist()
        case .reload:
            apply(form)
            persist()
            interactor.reloadRates()
        case .info:
            apply(form)
            persist()
            router.showAbout()
        case .unknown(let id):
            eventNotices.append(.init(kind: .error, text: "Unknown action '\(id)'."))
        }
        show()
    }

    /// Converts as the user types: applies the fields like an action does (refused input is
    /// never applied and says why) but saves nothing; Convert, Swap, Reload and Info still save.
    func didChange(form: MainFormInput) {
        hasAppeared = true
        clearLatestAction()
        apply(form)
        show()
    }

    // MARK: - MainInteractorOutput

    func interactorDidLoad(_ load: RatesLoad) {
        rates = load
        ratesNotice = load.notice
        show()
    }

    // MARK: - State (hot swap)

    var state: SavedConversion {
        SavedConversion(from: from, to: to, amount: amount.text)
    }

    /// Applies a state saved by `state` (possibly by an older version); throws without changing
    /// anything when a value is not valid here.
    func restore(_ state: SavedConversion) throws {
        let rates = rates.rates
        for currency in [state.from, state.to] where !rates.contains(currency) {
            throw ModuleError.invalidParameter("the saved currency \(currency) is not in the rates of \(rates.date)")
        }
        let amount: AmountInput.Amount
        do {
            amount = try AmountInput.parse(state.amount)
        } catch {
            throw ModuleError.invalidParameter("the saved amount '\(state.amount)' is refused: \(error)")
        }
        from = state.from
        to = state.to
        self.amount = amount
        show()
    }

    // MARK: - View object

    /// Pushes the current state, formatted, into the view.
    private func show() {
        view?.display(viewObject())
    }

    /// The current state as the view shows it.
    private func viewObject() -> MainViewObject {
        let codes = rates.rates.currencies.map(\.code)
        var notices: [MainViewObject.Notice] = []
        if let restoreProblem { notices.append(Self.notice(for: restoreProblem, showing: state)) }
        if let ratesNotice { notices.append(Self.notice(for: ratesNotice, rates: rates.rates)) }
        notices += eventNotices

        let result: String
        let rateLine: String
        do {
            let conversion = try interactor.convert(amount.value, from: from, to: to)
            result = "\(AmountFormatter.plain(amount.value)) \(from) = \(AmountFormatter.money(conversion.result)) \(to)"
            rateLine = "1 \(from) = \(AmountFormatter.conversionRate(conversion.rate)) \(to) · ECB \(conversion.date) · results rounded down to the cent"
        } catch {
            result = "\(AmountFormatter.plain(amount.value)) \(from) = — \(to)"
            rateLine = "No rate for \(from) → \(to)"
            notices.append(.init(kind: .error, text: error.description))
        }

        return MainViewObject(
            title: "Currency converter",
            heading: "Convert currencies",
            notices: notices,
            from: .init(id: MainViewObject.FieldID.from, label: "From", selected: from.code, options: codes),
            to: .init(id: MainViewObject.FieldID.to, label: "To", selected: to.code, options: codes),
            amount: .init(id: MainViewObject.FieldID.amount, label: "Amount", text: amount.text,
                          placeholder: "0", error: amountError),
            result: result,
            rateLine: rateLine,
            sourceLine: "Rates: \(Self.describe(rates.rates.source)), reference date \(rates.rates.date)",
            actions: [
                .init(id: MainViewObject.ActionID.convert, label: "Convert", isPrimary: true),
                .init(id: MainViewObject.ActionID.swap, label: "Swap", isPrimary: false),
                .init(id: MainViewObject.ActionID.reload, label: "Reload rates", isPrimary: false),
                .init(id: MainViewObject.ActionID.info, label: "Info", isPrimary: false),
            ])
    }

    // MARK: - Private

    private func clearLatestAction() {
        eventNotices = []
        amountError = nil
        ratesNotice = nil
        restoreProblem = nil
    }

    private func apply(_ form: MainFormInput) {
        if let raw = form.from { from = currency(raw, field: "From", keeping: from) }
        if let raw = form.to { to = currency(raw, field: "To", keeping: to) }
        if let raw = form.amount {
            do {
                amount = try AmountInput.parse(raw)
            } catch {
                let kept = amount.text.isEmpty ? "0" : amount.text
                amountError = "'\(raw)' was not accepted: \(error.description). The amount stays \(kept)."
            }
        }
    }

    private func currency(_ raw: String, field: String, keeping current: Currency) -> Currency {
        if let currency = Currency(code: raw), rates.rates.contains(currency) { return currency }
        let codes = rates.rates.currencies.map(\.code).joined(separator: ", ")
        eventNotices.append(.init(kind: .error, text:
            "\(field): '\(raw)' is not one of the currencies (\(codes)); \(current) is kept."))
        return current
    }

    private func persist() {
        do {
            try interactor.save(state)
        } catch {
            eventNotices.append(.init(kind: .warning, text:
                "This conversion could not be saved for the next start: \(error)"))
        }
    }

    static func describe(_ source: RatesSource) -> String {
        switch source {
        case .bundled: "bundled ECB snapshot (offline)"
        case .live(let url): "ECB rates from \(url)"
        case .cached(let url): "cached ECB rates from \(url)"
        }
    }

    static func notice(for notice: RatesNotice, rates: ExchangeRates) -> MainViewObject.Notice {
        let used = "Using the \(describe(rates.source)) of \(rates.date)."
        switch notice {
        case .updated(let url):
            return .init(kind: .success, text: "Rates updated from \(url): ECB reference rates of \(rates.date).")
        case .offlineOnly:
            return .init(kind: .info, text: "The rates URL is set to empty, so the rates stay offline (go back to the "
                + "ECB's with `den config unset main rates_url`). \(used)")
        case .sourceFailed(let url, let reason):
            return .init(kind: .warning, text: "Could not load rates from \(url): \(clause(reason)). \(used)")
        case .badURL(let problem):
            return .init(kind: .warning, text: "The rates URL cannot be used: \(clause(problem)). Fix it with "
                + "`den config set main rates_url <URL>` (`den config show main` lists the settings). \(used)")
        case .cacheUnreadable(let reason):
            return .init(kind: .warning, text: "The cached rates could not be read (\(clause(reason))). \(used)")
        case .noRatesAvailable(let reason):
            return .init(kind: .error, text: "No exchange rates are available (\(clause(reason))); only EUR can be converted.")
        case .notCached(let reason):
            return .init(kind: .warning, text: "Rates updated (ECB \(rates.date)), but they could not be "
                + "saved for the next start: \(clause(reason)).")
        }
    }

    static func notice(for problem: RestoreProblem, showing current: SavedConversion) -> MainViewObject.Notice {
        let shown = "\(current.amount.isEmpty ? "0" : current.amount) \(current.from) → \(current.to)"
        switch problem {
        case .unreadable(let reason):
            return .init(kind: .warning, text: "Your last conversion could not be read back (\(clause(reason))), "
                + "so the converter shows \(shown). The next Convert saves it again.")
        case .refused(let saved, let reason):
            let was = "\(saved.amount.isEmpty ? "0" : saved.amount) \(saved.from) → \(saved.to)"
            return .init(kind: .warning, text: "Your last conversion, \(was), could not be restored: \(clause(reason)). "
                + "The converter shows \(shown) instead.")
        }
    }

    /// A service's message as a clause inside our sentence: without its closing period.
    static func clause(_ text: String) -> String {
        var text = text.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
