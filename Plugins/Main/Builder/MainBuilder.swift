import DenKit
import Foundation

/// Assembles a Main stack for a route and injects its dependencies; holds nothing afterwards.
enum MainBuilder: ModuleBuilder {
    static func build(_ context: BuildContext) throws -> any ModuleInstance {
        try assemble(context, dependencies: .host(context.host)).instance
    }

    /// The parts of one stack (the instance owns them; tests look inside).
    struct Stack {
        let instance: VIPERInstance
        let view: MainView
        let presenter: MainPresenter
        let interactor: MainInteractor
        let router: MainRouter
    }

    static func assemble(_ context: BuildContext, dependencies: MainDependencies) throws -> Stack {
        let interactor = MainInteractor(settings: dependencies.settings, fetcher: dependencies.fetcher,
                                        bundled: dependencies.bundled, environment: dependencies.environment,
                                        log: dependencies.log)
        let load = interactor.loadOfflineRates()
        let initial: (SavedConversion, AmountInput.Amount)
        if let link = try deepLink(context, rates: load.rates) {
            initial = link
        } else {
            initial = saved(interactor.lastConversion(), rates: load.rates) ?? defaultConversion(load.rates)
        }

        let navigation = Navigation()
        let router = MainRouter(navigation: navigation)
        let presenter = MainPresenter(interactor: interactor, router: router, initial: initial.0,
                                      amount: initial.1, rates: interactor.currentRates)
        interactor.output = presenter
        let view = MainView(presenter: presenter)
        router.view = view
        let instance = VIPERInstance(view: view, navigation: navigation, state: MainStateCodec(presenter: presenter))
        return Stack(instance: instance, view: view, presenter: presenter, interactor: interactor, router: router)
    }

    /// The values of a `convert/<amount>/<from>/<to>` link, nil for other routes. Currency codes
    /// may be lower-case; an unknown one is refused with the list of valid codes.
    static func deepLink(_ context: BuildContext, rates: ExchangeRates) throws -> (SavedConversion, AmountInput.Amount)? {
        let names = ["amount", "from", "to"]
        guard names.contains(where: { context.parameters[$0] != nil }) else { return nil }
        let number = try context.double("amount")
        let raw = try context.string("amount")
        guard number >= 0 else {
            throw ModuleError.invalidParameter("amount must be zero or more, got '\(raw)'")
        }
        let from = try currency(context.string("from"), rates: rates)
        let to = try currency(context.string("to"), rates: rates)
        let value = try amount(raw, number: number)
        return (SavedConversion(from: from, to: to, amount: value.text), value)
    }

    /// The link's amount under the field's input rules; other spellings the router accepts as a
    /// double ("1e3") are rewritten in plain notation ("1000") and checked by the same rules.
    private static func amount(_ raw: String, number: Double) throws -> AmountInput.Amount {
        if let amount = try? AmountInput.parse(raw) { return amount }
        let plain = Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX")).map(AmountFormatter.plain)
        do {
            return try AmountInput.parse(plain ?? raw)
        } catch {
            throw ModuleError.invalidParameter("amount '\(raw)' is not accepted: \(error)")
        }
    }

    private static func currency(_ code: String, rates: ExchangeRates) throws -> Currency {
        guard let currency = Currency(code: code), rates.contains(currency) else {
            let codes = rates.currencies.map(\.code).joined(separator: ", ")
            throw ModuleError.invalidParameter(
                "unknown currency '\(code)'; valid codes (any case): \(codes)")
        }
        return currency
    }

    /// A saved conversion that is still valid with these rates, else nil.
    static func saved(_ saved: SavedConversion?, rates: ExchangeRates) -> (SavedConversion, AmountInput.Amount)? {
        guard let saved, rates.contains(saved.from), rates.contains(saved.to),
              let amount = try? AmountInput.parse(saved.amount) else { return nil }
        return (SavedConversion(from: saved.from, to: saved.to, amount: amount.text), amount)
    }

    /// 100 USD → EUR (or the first quoted currency when USD is missing).
    static func defaultConversion(_ rates: ExchangeRates) -> (SavedConversion, AmountInput.Amount) {
        let usd = Currency(code: "USD")!
        let from = rates.contains(usd) ? usd : (rates.currencies.first { $0 != .euro } ?? .euro)
        let amount = AmountInput.Amount(text: "100", value: 100)
        return (SavedConversion(from: from, to: .euro, amount: amount.text), amount)
    }
}
