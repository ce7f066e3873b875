import DenKit
import Foundation
@testable import MainModule
import Testing

/// Main's `convert` and `rates_date` exports: the screen's input rules and rounding, without it.
@Suite("Main's exports")
struct MainExportsTests {
    let exports = MainExports(dependencies: offlineDependencies())

    @Test("100 USD → EUR with the bundled rates is 89.08, as on the screen")
    func convertsLikeTheScreen() throws {
        #expect(try exports.convert(amount: 100, from: "USD", to: "EUR") == "89.08")
        #expect(try exports.convert(amount: 250, from: "usd", to: "jpy") == "39418.70", "as `den render convert/250/usd/jpy` shows it")
        #expect(try exports.convert(amount: 100, from: "USD", to: "USD") == "100", "a whole amount drops .00")
        #expect(try exports.convert(amount: 0, from: "EUR", to: "GBP") == "0")
    }

    @Test("the result is rounded down to 2 fraction digits, as AmountFormatter does")
    func roundsDown() throws {
        let rates = try bundledRates()
        let unrounded = try rates.convert(dec("12.345"), from: usd, to: jpy).result
        #expect(try exports.convert(amount: 12.345, from: "USD", to: "JPY") == AmountFormatter.money(unrounded))
        #expect(try exports.convert(amount: 0.5, from: "EUR", to: "USD") == "0.56", "0.56125 is rounded down")
    }

    @Test("amounts the field refuses are refused with the field's reason",
          arguments: [(-1.0, "negative"), (Double.nan, "not a number"), (Double.infinity, "not a number"),
                      (0.0000001, "at most 6 digits after"), (1e16, "at most 15 digits before")])
    func refusedAmounts(amount: Double, reason: String) {
        #expect {
            _ = try exports.convert(amount: amount, from: "USD", to: "EUR")
        } throws: { error in
            guard let failure = error as? ExportFailure else { return false }
            return failure.status == 1 && failure.message.contains(reason)
        }
    }

    @Test("an unknown currency is DEN_ERR_NOT_FOUND naming the valid codes")
    func unknownCurrency() {
        #expect {
            _ = try exports.convert(amount: 1, from: "XYZ", to: "EUR")
        } throws: { error in
            guard let failure = error as? ExportFailure else { return false }
            return failure.status == 2 && failure.message.contains("unknown currency 'XYZ'") && failure.message.contains("USD")
        }
    }

    @Test("rates_date is the date of the rates in use: bundled, or cached from a reload")
    func ratesDate() throws {
        #expect(exports.ratesDate() == "2026-10-02")
        let settings = MockSettingsStore()
        let fetcher = MockFetcher { _ in Data(otherDayXML.utf8) }
        let interactor = MainInteractor(settings: settings, memory: memory(settings), fetcher: fetcher, bundled: BundledRatesProvider(),
                                        environment: [:], log: nil)
        interactor.reloadRates() // fetches otherDayXML from the default URL and caches it
        let later = MainExports(dependencies: offlineDependencies(settings))
        #expect(later.ratesDate() == "2026-10-05")
        #expect(try later.convert(amount: 120, from: "USD", to: "EUR") == "100", "with the cached USD rate of 1.2000")
    }

    @Test("the generated C functions write the result or the message through the calling convention")
    func cFunctions() throws {
        typealias Convert = @convention(c) (UnsafeRawPointer?, Double, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                                            UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
        let function = try #require(mainModule.exports.first { $0.name == "convert" }?.function)
        let mainConvertExport = unsafeBitCast(function, to: Convert.self)
        var result = den_owned_stub()
        var error = den_owned_stub()
        let status = withUnsafeMutableBytes(of: &result) { resultBytes in
            withUnsafeMutableBytes(of: &error) { errorBytes in
                mainConvertExport(nil, 1, "EUR", "QQQ", resultBytes.baseAddress, errorBytes.baseAddress)
            }
        }
        #expect(status == 2)
        #expect(result.ptr == nil)
        #expect(error.text.contains("unknown currency 'QQQ'"))
    }
}

/// A den_owned-shaped value, so this test needs no C module import.
struct den_owned_stub {
    var ptr: UnsafeMutablePointer<UInt8>?
    var len: Int = 0
    var release: (@convention(c) (UnsafeMutablePointer<UInt8>?, Int) -> Void)?

    var text: String {
        guard let ptr else { return "" }
        defer { release?(ptr, len) }
        return String(decoding: UnsafeBufferPointer(start: ptr, count: len), as: UTF8.self)
    }
}
