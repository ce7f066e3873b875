/// An ISO 4217 currency code as the ECB quotes it ("USD"). Always three upper-case ASCII letters;
/// lower-case input ("usd") is accepted and upper-cased.
struct Currency: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    let code: String

    /// Nil unless `code` is three ASCII letters (any case).
    init?(code: String) {
        let trimmed = code.trimmingWhitespace()
        guard trimmed.utf8.count == 3,
              trimmed.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { return nil }
        self.code = trimmed.uppercased()
    }

    /// The base of every ECB rate.
    static let euro = Currency(uncheckedCode: "EUR")

    private init(uncheckedCode: String) {
        self.code = uncheckedCode
    }

    var description: String { code }

    static func < (lhs: Currency, rhs: Currency) -> Bool { lhs.code < rhs.code }

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let currency = Currency(code: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "'\(text)' is not a currency code"))
        }
        self = currency
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
