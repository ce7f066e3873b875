import Foundation
import Testing
@testable import MainModule

@Suite("Output formatting")
struct AmountFormatterTests {
    @Test("money: at most 2 fraction digits, rounded down, no grouping, no trailing .00", arguments: [
        ("12.999", "12.99"),
        ("5.0", "5"),
        ("5", "5"),
        ("5.001", "5"),
        ("1234567.5", "1234567.50"),
        ("0.1", "0.10"),
        ("0.009", "0"),
        ("0", "0"),
        ("99.999999", "99.99"),
        ("12.5", "12.50"),
        ("100000000000000000000", "100000000000000000000"),
    ])
    func money(value: String, expected: String) {
        #expect(AmountFormatter.money(dec(value)) == expected)
    }

    @Test("money never rounds up, even just below a whole number")
    func neverRoundsUp() {
        #expect(AmountFormatter.money(dec("0.999999999999")) == "0.99")
        #expect(AmountFormatter.money(dec("1") / dec("3") * 3) == "0.99")
    }

    @Test("money truncates toward zero for negative values")
    func negative() {
        #expect(AmountFormatter.money(dec("-12.999")) == "-12.99")
        #expect(AmountFormatter.money(dec("-0.001")) == "0")
    }

    @Test("money has no grouping separator in any locale")
    func noGrouping() {
        #expect(!AmountFormatter.money(dec("1234567.891")).contains(","))
        #expect(!AmountFormatter.money(dec("1234567.891")).contains(" "))
    }

    @Test("rate: 4 fraction digits, 4 significant digits below 0.1", arguments: [
        ("1", "1.1225", "0.8909"),
        ("176.99", "1.1225", "157.6748"),
        ("1", "176.99", "0.005650"),
        ("1", "20149.32", "0.00004963"),
        ("1", "1", "1.0000"),
    ])
    func rate(numerator: String, denominator: String, expected: String) {
        #expect(AmountFormatter.rate(dec(numerator) / dec(denominator)) == expected)
    }

    @Test("the rate beside a result: 6 digits rounded down, so amount × rate never rounds past the result", arguments: [
        ("1", "1.1225", "0.890868"),
        ("176.99", "1.1225", "157.674832"),
        ("1", "176.99", "0.00565003"),
        ("1", "1", "1.000000"),
    ])
    func conversionRate(numerator: String, denominator: String, expected: String) {
        let rate = dec(numerator) / dec(denominator)
        let shown = AmountFormatter.conversionRate(rate)
        #expect(shown == expected)
        // The newcomer's check: 100 × the rate shown, rounded down, is the result shown.
        #expect(AmountFormatter.money(100 * dec(shown)) == AmountFormatter.money(100 * rate))
    }

    @Test("plain: the amount as a number, without a dangling separator")
    func plain() {
        #expect(AmountFormatter.plain(dec("12.5")) == "12.5")
        #expect(AmountFormatter.plain(0) == "0")
        #expect(AmountFormatter.plain(try! AmountInput.parse("5.").value) == "5")
    }
}
