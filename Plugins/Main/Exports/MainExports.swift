import DenKit
import Foundation

/// What Main offers other modules and `den call` (ABI revision 2): the converter without its
/// screen, with the screen's own rules — the amount field's input rules, the offline rates
/// (cached, else bundled: an export never fetches), cross rates through EUR, and the result
/// rounded down to at most 2 fraction digits.
struct MainExports {
    let interactor: MainInteractor

    init(dependencies: MainDependencies) {
        interactor = MainInteractor(settings: dependencies.settings, memory: dependencies.memory, fetcher: dependencies.fetcher,
                                    bundled: dependencies.bundled, environment: dependencies.environment,
                                    log: dependencies.log)
    }

    /// `convert(f64 amount, string from, string to) -> string`: "89.08" for 100 USD → EUR.
    func convert(amount: Double, from: String, to: String) throws(ExportFailure) -> String {
        let value = try Self.amount(amount)
        let rates = interactor.loadOfflineRates().rates
        let source = try Self.currency(from, rates: rates)
        let target = try Self.currency(to, rates: rates)
        do {
            return AmountFormatter.money(try rates.convert(value.value, from: source, to: target).result)
        } catch {
            throw .invalidArgument(error.description)
        }
    }

    /// `rates_date() -> string`: the reference date of the rates `convert` uses ("2026-10-02").
    func ratesDate() -> String {
        interactor.loadOfflineRates().rates.date
    }

    /// The number as the amount field would read it: shortest decimal text, then the field's rules.
    static func amount(_ number: Double) throws(ExportFailure) -> AmountInput.Amount {
        guard number.isFinite else { throw .invalidArgument("the amount \(number) is not a number; give a finite amount such as 12.5") }
        guard number >= 0 else { throw .invalidArgument("the amount \(ExportValue.f64(number)) is negative; the converter takes amounts from 0 up") }
        guard let decimal = Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX")) else {
            throw .invalidArgument("the amount \(number) cannot be read as a decimal number")
        }
        do {
            return try AmountInput.parse(decimal.description)
        } catch {
            throw .invalidArgument("the amount \(decimal) was not accepted: \(error.description)")
        }
    }

    static func currency(_ code: String, rates: ExchangeRates) throws(ExportFailure) -> Currency {
        guard let currency = Currency(code: code), rates.contains(currency) else {
            throw .notFound("unknown currency '\(code)'; valid codes (any case): \(rates.currencies.map(\.code).joined(separator: ", "))")
        }
        return currency
    }
}

/// The exports Manifest/module.json declares (`MainExporting`, generated), on the host's services.
extension MainExports {
    static func convert(host: HostServices, amount: Double, from: String, to: String) throws -> String {
        try MainExports(dependencies: .host(host)).convert(amount: amount, from: from, to: to)
    }

    static func ratesDate(host: HostServices) throws -> String {
        MainExports(dependencies: .host(host)).ratesDate()
    }
}
