import DenKit
import Foundation

/// Assembles a Main stack for a route and injects its dependencies; holds nothing afterwards.
/// Its builders are the routes of Manifest/module.json (`MainRouteBuilding`, generated).
enum MainBuilder {
    static func buildMain(_ context: BuildContext) throws -> any ModuleInstance {
        try assemble(dependencies: .host(context.host)).instance
    }

    /// `convert/<string:amount>/<string:from>/<string:to>`. The amount is a string, not a
    /// `<double>`: the link follows the amount field's own rules (`AmountInput`), so ".5", "5." and
    /// "1,5" open like they do in the field, "00" and "007" are refused with Main's message, and no
    /// spelling the field refuses ("1e3", "-5") gets in through the router. `deepLink` checks them.
    static func buildConvert(_ context: BuildContext, amount: String, from: String, to: String) throws -> any ModuleInstance {
        try assemble(link: ConversionLink(amount: amount, from: from, to: to), dependencies: .host(context.host)).instance
    }

    /// The parts of one stack (the instance owns them; tests look inside).
    struct Stack {
        let instance: VIPERInstance
        let view: MainView
        let presenter: MainPresenter
        let interactor: MainInteractor
        let router: MainRouter
    }

    /// The values of a `convert/<amount>/<from>/<to>` link, as the route spelled them.
    struct ConversionLink: Equatable {
        var amount: String
        var from: String
        var to: String
    }

    /// A stack opening `link`'s conversion, or (no link) the last one saved.
    static func assemble(link: ConversionLink? = nil, dependencies: MainDependencies) throws -> Stack {
        let interactor = MainInteractor(settings: dependencies.settings, memory: dependencies.memory, fetcher: dependencies.fetcher,
                                        bundled: dependencies.bundled, environment: dependencies.environment,
                                        log: dependencies.log)
        let load = interactor.loadOfflineRates()
        let initial: (SavedConversion, AmountInput.Amount)
        var problem: RestoreProblem?
        if let link {
            initial = try deepLink(link, rates: load.rates)
        } else {
            do {
                initial = try restored(interactor.lastConversion(), rates: load.rates) ?? defaultConversion(load.rates)
            } catch {
                problem = error
                initial = defaultConversion(load.rates)
            }
        }

        let navigation = Navigation()
        let router = MainRouter(navigation: navigation)
        let presenter = MainPresenter(interactor: interactor, router: router, initial: initial.0,
                                      amount: initial.1, rates: load, restoreProblem: problem)
        interactor.output = presenter
        let view = MainView(presenter: presenter)
        presenter.view = view
        router.view = view
        let instance = VIPERInstance(view: view, navigation: navigation, state: MainStateCodec.make(presenter: presenter))
        return Stack(instance: instance, view: view, presenter: presenter, interactor: interactor, router: router)
    }

    /// The conversion `link` opens. The amount follows the field's input rules; currency codes may
    /// be lower-case. Anything refused gets Main's own message (the host shows it), naming what
    /// was wrong and what is allowed.
    static func deepLink(_ link: ConversionLink, rates: ExchangeRates) throws -> (SavedConversion, AmountInput.Amount) {
        let value: AmountInput.Amount
        do {
            value = try AmountInput.parse(link.amount)
        } catch {
            throw ModuleError.invalidParameter("The link's amount '\(link.amount)' was not accepted: \(error.description).")
        }
        let from = try currency(link.from, rates: rates)
        let to = try currency(link.to, rates: rates)
        return (SavedConversion(from: from, to: to, amount: value.text), value)
    }

    private static func currency(_ code: String, rates: ExchangeRates) throws -> Currency {
        guard let currency = Currency(code: code), rates.contains(currency) else {
            let codes = rates.currencies.map(\.code).joined(separator: ", ")
            throw ModuleError.invalidParameter(
                "unknown currency '\(code)'; valid codes (any case): \(codes)")
        }
        return currency
    }

    /// A saved conversion that is still valid with these rates; nil when none was saved; throws
    /// (saying why) when one was saved but cannot be used, so the presenter tells the user.
    static func restored(_ saved: SavedConversion?, rates: ExchangeRates) throws(RestoreProblem) -> (SavedConversion, AmountInput.Amount)? {
        guard let saved else { return nil }
        for currency in [saved.from, saved.to] where !rates.contains(currency) {
            throw .refused(saved: saved, reason: "\(currency) is not in the rates of \(rates.date)")
        }
        do {
            let amount = try AmountInput.parse(saved.amount)
            return (SavedConversion(from: saved.from, to: saved.to, amount: amount.text), amount)
        } catch {
            throw .refused(saved: saved, reason: "the amount is not accepted (\(error.description))")
        }
    }

    /// 100 USD → EUR (or the first quoted currency when USD is missing).
    static func defaultConversion(_ rates: ExchangeRates) -> (SavedConversion, AmountInput.Amount) {
        let usd = Currency(code: "USD")!
        let from = rates.contains(usd) ? usd : (rates.currencies.first { $0 != .euro } ?? .euro)
        let amount = AmountInput.Amount(text: "100", value: 100)
        return (SavedConversion(from: from, to: .euro, amount: amount.text), amount)
    }
}
