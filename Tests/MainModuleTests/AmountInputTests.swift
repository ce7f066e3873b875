import Foundation
import Testing
@testable import MainModule

@Suite("Amount input rules")
struct AmountInputTests {
    @Test("accepts digits with one separator and normalises the text", arguments: [
        ("12", "12", "12"),
        ("0", "0", "0"),
        ("12.5", "12.5", "12.5"),
        ("0.11", "0.11", "0.11"),
        ("100000000000000", "100000000000000", "100000000000000"),
        ("0.000001", "0.000001", "0.000001"),
    ])
    func acceptsValidAmounts(input: String, text: String, value: String) throws {
        let amount = try AmountInput.parse(input)
        #expect(amount.text == text)
        #expect(amount.value == dec(value))
    }

    @Test("a comma becomes a dot", arguments: ["12,5", "12.5"])
    func commaIsADot(input: String) throws {
        #expect(try AmountInput.parse(input) == AmountInput.Amount(text: "12.5", value: dec("12.5")))
    }

    @Test("empty input means 0", arguments: ["", " ", "\t \n"])
    func emptyMeansZero(input: String) throws {
        let amount = try AmountInput.parse(input)
        #expect(amount.value == 0)
        #expect(amount.text == "")
    }

    @Test("surrounding spaces are ignored")
    func surroundingSpaces() throws {
        #expect(try AmountInput.parse("  7 ").text == "7")
    }

    @Test("a leading separator means 0., a trailing one is kept")
    func separatorAtTheEdges() throws {
        #expect(try AmountInput.parse(".5") == AmountInput.Amount(text: "0.5", value: dec("0.5")))
        #expect(try AmountInput.parse(",5").text == "0.5")
        #expect(try AmountInput.parse("5.") == AmountInput.Amount(text: "5.", value: 5))
        #expect(try AmountInput.parse(".") == AmountInput.Amount(text: "0.", value: 0))
    }

    @Test("only digits: anything else is refused, naming the character", arguments: [
        ("12a", "a"), ("-5", "-"), ("+5", "+"), ("1 000", " "), ("1e3", "e"), ("١٢", "١"), ("12€", "€"), ("1'000", "'"),
    ])
    func onlyDigits(input: String, character: String) {
        #expect(throws: AmountRejection.notAllowed(Character(character))) { try AmountInput.parse(input) }
    }

    @Test("no second leading zero", arguments: ["00", "000", "007", "00.5", "00,5", " 00 "])
    func noSecondLeadingZero(input: String) {
        #expect(throws: AmountRejection.leadingZero) { try AmountInput.parse(input) }
    }

    @Test("a single leading zero before a digit is dropped, as a text field replaces its 0", arguments: [
        ("05", "5", "5"),
        ("05.5", "5.5", "5.5"),
        ("05,25", "5.25", "5.25"),
        ("0500", "500", "500"),
        ("0123456789012345", "123456789012345", "123456789012345"),
    ])
    func singleLeadingZeroIsDropped(input: String, text: String, value: String) throws {
        #expect(try AmountInput.parse(input) == AmountInput.Amount(text: text, value: dec(value)))
    }

    @Test("a lone zero stays: 0 and 0.5 are fine")
    func loneZero() throws {
        #expect(try AmountInput.parse("0") == AmountInput.Amount(text: "0", value: 0))
        #expect(try AmountInput.parse("0.5") == AmountInput.Amount(text: "0.5", value: dec("0.5")))
        #expect(try AmountInput.parse("0,") == AmountInput.Amount(text: "0.", value: 0))
    }

    @Test("no second separator", arguments: ["0.11.2", "1,2,3", "1.2,3", "..", "1..2"])
    func noSecondSeparator(input: String) {
        #expect(throws: AmountRejection.secondSeparator) { try AmountInput.parse(input) }
    }

    @Test("at most 15 digits before and 6 after the separator")
    func lengthLimits() {
        #expect(throws: AmountRejection.tooManyIntegerDigits) { try AmountInput.parse("1234567890123456") }
        #expect(throws: AmountRejection.tooManyFractionDigits) { try AmountInput.parse("0.1234567") }
    }

    @Test("every refusal says exactly what is allowed", arguments: [
        (AmountRejection.notAllowed("x"), "'x' is not allowed: use only digits and one decimal separator (. or ,)"),
        (.secondSeparator, "only one decimal separator (. or ,) is allowed"),
        (.leadingZero, "no second leading zero: write 0, 0.5 or 5, not 00"),
        (.tooManyIntegerDigits, "at most 15 digits before the decimal separator"),
        (.tooManyFractionDigits, "at most 6 digits after the decimal separator"),
    ])
    func messagesSayWhatIsAllowed(rejection: AmountRejection, message: String) {
        #expect(rejection.description == message)
    }
}
