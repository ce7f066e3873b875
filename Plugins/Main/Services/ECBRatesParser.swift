import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the ECB's `eurofxref-daily.xml` format:
///
/// ```xml
/// <gesmes:Envelope ...><Cube><Cube time='2026-10-02'>
///     <Cube currency='USD' rate='1.1225'/> ...
/// </Cube></Cube></gesmes:Envelope>
/// ```
///
/// The whole document is checked before anything is returned (well-formed and complete, exactly
/// one dated day, at least one rate, valid and unique currency codes, positive decimal rates), so
/// a broken or partial document is refused as a whole and never half-applied.
enum ECBRatesParser {
    /// Larger documents are refused (the daily file is ~1.5 KB).
    static let sizeLimit = 256 * 1024

    static func parse(_ data: Data, source: RatesSource) throws(RatesError) -> ExchangeRates {
        guard !data.isEmpty else { throw .empty }
        guard data.count <= sizeLimit else { throw .tooLarge(bytes: data.count, limit: sizeLimit) }

        let reader = CubeReader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let finished = parser.parse()
        // `parse()` reports success for some broken documents (e.g. a missing end tag), so the
        // parser's error, the delegate's findings and the element balance are all checked.
        if let failure = reader.failure { throw failure }
        if let error = reader.parseError ?? parser.parserError { // the first error is the cause
            if (error as NSError).code == LibXMLError.documentEnd,
               let open = reader.openElements.last {
                throw .truncated(openElement: open)
            }
            throw .notWellFormed(describe(error, line: parser.lineNumber, column: parser.columnNumber))
        }
        guard finished else { throw .notWellFormed("parsing stopped at line \(parser.lineNumber)") }
        guard reader.sawRoot else { throw .empty }
        if let open = reader.openElements.last { throw .truncated(openElement: open) }
        return try validate(reader, source: source)
    }

    private static func validate(_ reader: CubeReader, source: RatesSource) throws(RatesError) -> ExchangeRates {
        guard let date = reader.dates.first else { throw .missingDate }
        guard reader.dates.count == 1 else { throw .multipleDays(reader.dates.count) }
        guard isISODate(date) else { throw .badDate(date) }
        guard !reader.quotes.isEmpty else { throw .noRates(date: date) }

        var perEuro: [Currency: Decimal] = [:]
        for quote in reader.quotes {
            guard let currency = Currency(code: quote.currency), currency.code == quote.currency else {
                throw .badCurrency(quote.currency, reason: "expected three upper-case letters")
            }
            guard currency != .euro else {
                throw .badCurrency(quote.currency, reason: "EUR is the base of every rate")
            }
            guard perEuro[currency] == nil else { throw .duplicateCurrency(currency.code) }
            guard let rate = quote.rate, let value = positiveDecimal(rate) else {
                throw .badRate(currency: currency.code, value: quote.rate ?? "")
            }
            perEuro[currency] = value
        }
        return ExchangeRates(date: date, perEuro: perEuro, source: source)
    }

    /// `digits[.digits]`, greater than zero. (`Decimal(string:)` alone accepts "1.2abc".)
    static func positiveDecimal(_ text: String) -> Decimal? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
              parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              text.utf8.count <= 30,
              let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
              value > 0
        else { return nil }
        return value
    }

    /// `YYYY-MM-DD` with a month 01-12 and a day that exists in that month.
    static func isISODate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month)
        else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// libxml2's error codes, which Foundation's `XMLParser` reports as the `NSError` code on
    /// every platform (FoundationXML's `XMLParser.ErrorCode` raw values are off by one on Linux).
    private enum LibXMLError {
        static let documentStart = 3, documentEmpty = 4, documentEnd = 5
        static let attributeRedefined = 42, gtRequired = 73, tagNameMismatch = 76
    }

    private static func describe(_ error: any Error, line: Int, column: Int) -> String {
        let code = (error as NSError).code
        let what = switch code {
        case LibXMLError.documentStart, LibXMLError.documentEmpty: "no XML element where the document should start"
        case LibXMLError.documentEnd: "the document ends too early or has content after its root element"
        case LibXMLError.tagNameMismatch: "an end tag does not match its start tag"
        case LibXMLError.attributeRedefined: "an attribute is given twice"
        case LibXMLError.gtRequired: "a tag is not closed"
        default: "XML error \(code)"
        }
        return "\(what), line \(line), column \(column)"
    }
}

/// Collects the dated day and the currency quotes; stops at the first structural problem.
private final class CubeReader: NSObject, XMLParserDelegate {
    struct Quote {
        let currency: String
        let rate: String?
    }

    var openElements: [String] = []
    var sawRoot = false
    var dates: [String] = []
    var quotes: [Quote] = []
    var failure: RatesError?
    var parseError: (any Error)?
    /// Depth (in `openElements`) of the dated `<Cube time=...>` being read, if any.
    private var dayDepth: Int?

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) {
        sawRoot = true
        openElements.append(elementName)
        guard localName(elementName) == "Cube" else { return }
        if let time = attributes["time"] {
            dates.append(time)
            dayDepth = openElements.count
        } else if let currency = attributes["currency"] {
            guard dayDepth != nil else {
                failure = dates.isEmpty ? .missingDate : .rateOutsideDay(currency: currency)
                parser.abortParsing()
                return
            }
            quotes.append(Quote(currency: currency, rate: attributes["rate"]))
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        if dayDepth == openElements.count { dayDepth = nil }
        if !openElements.isEmpty { openElements.removeLast() }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if self.parseError == nil { self.parseError = parseError }
    }

    private func localName(_ name: String) -> Substring {
        name.split(separator: ":").last ?? Substring(name)
    }
}
