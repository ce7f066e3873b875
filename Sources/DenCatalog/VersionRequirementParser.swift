/// A range text that is not one: what is wrong, and the forms that are accepted.
public struct RequirementParseError: Error, Equatable, Sendable, CustomStringConvertible {
    package let text: String
    package let reason: String

    /// Every accepted form, with an example each, for the end of every refusal.
    package static let acceptedForms =
        "^1.2.3, ~1.2.3, 1.2.x, 1.x, *, =1.2.3 or 1.2.3 (exactly), >1.2, >=1.1, <2, <=1.4; comparators joined by spaces (>=1.1 <2), alternatives by || (^1.2 || ^2)"

    public var description: String {
        "'\(text)' is not a version range: \(reason). Accepted: \(Self.acceptedForms)"
    }
}

extension VersionRequirement {
    /// The longest range text read; a manifest's ranges are a few characters, and every
    /// comparator costs each candidate version a check during a resolve.
    package static let maximumLength = 1024

    /// Parses a range as a manifest's `requires` writes it, or throws what is wrong with it.
    public init(parsing text: String) throws(RequirementParseError) {
        func refuse(_ reason: String) -> RequirementParseError { RequirementParseError(text: text, reason: reason) }
        guard text.utf8.count <= Self.maximumLength else {
            throw refuse("it is \(text.utf8.count) bytes long; a range is at most \(Self.maximumLength)")
        }
        // Only printable ASCII: a tab, a newline or a look-alike character has no place in a range.
        if let odd = text.unicodeScalars.first(where: { !($0.value >= 0x20 && $0.value < 0x7F) }) {
            throw refuse("it contains \(Self.name(odd)); a range is printable ASCII, with spaces between comparators")
        }
        if text.contains(",") { throw refuse("it contains ','; join comparators with spaces (>=1.1 <2), not commas") }
        if text.replacing("||", with: "").contains("|") { throw refuse("it has a single '|'; alternatives are joined by '||'") }
        guard text.contains(where: { $0 != " " }) else { throw refuse("it is empty; write * for any version") }

        var alternatives: [[Comparator]] = []
        for alternative in text.split(separator: "||", omittingEmptySubsequences: false) {
            guard alternative.contains(where: { $0 != " " }) else { throw refuse("an alternative around '||' is empty") }
            alternatives.append(try Self.comparators(alternative, refuse: refuse))
        }
        self.init(alternatives: alternatives)
    }

    /// The comparators of one alternative: tokens split by spaces, where an operator written
    /// apart from its version (`>= 1.1`) is joined back to it.
    private static func comparators(_ text: Substring, refuse: (String) -> RequirementParseError) throws(RequirementParseError) -> [Comparator] {
        var tokens = text.split(separator: " ").map(String.init)
        if tokens.contains("-") { throw refuse("hyphen ranges (1.2 - 2.3) are not accepted; write >=1.2 <=2.3") }
        var comparators: [Comparator] = []
        while !tokens.isEmpty {
            var token = tokens.removeFirst()
            if Comparator.Operator(rawValue: token) != nil, let next = tokens.first, !next.isEmpty, !Self.startsWithOperator(next) {
                token += tokens.removeFirst()
            }
            comparators.append(try comparator(token, refuse: refuse))
        }
        return comparators
    }

    private static let operatorCharacters: Set<Character> = ["<", ">", "=", "^", "~"]

    private static func startsWithOperator(_ token: String) -> Bool {
        token.first.map { operatorCharacters.contains($0) } ?? false
    }

    private static func comparator(_ token: String, refuse: (String) -> RequirementParseError) throws(RequirementParseError) -> Comparator {
        let operatorText = String(token.prefix { operatorCharacters.contains($0) })
        guard let op = Comparator.Operator(rawValue: operatorText) else {
            if operatorText == "~>" { throw refuse("'~>' is not an operator here; write ~1.2 for 1.2.x") }
            throw refuse("'\(operatorText)' in '\(token)' is not an operator; the operators are =, >, >=, <, <=, ^ and ~")
        }
        let versionText = String(token.dropFirst(operatorText.count))
        guard !versionText.isEmpty else { throw refuse("'\(token)' is not followed by a version") }
        if versionText.first == "v" || versionText.first == "V" {
            throw refuse("'\(token)' has a 'v' before its version; write \(operatorText)\(versionText.dropFirst())")
        }
        return Comparator(op, try partialVersion(versionText, in: token, refuse: refuse))
    }

    private static func partialVersion(_ text: String, in token: String,
                                       refuse: (String) -> RequirementParseError) throws(RequirementParseError) -> PartialVersion {
        // Three numbers: a whole version, with its prerelease and build, read by the module rule.
        let core = text.prefix { $0 != "-" && $0 != "+" }
        let pieces = core.split(separator: ".", omittingEmptySubsequences: false)
        let isDigits = { (piece: Substring) in !piece.isEmpty && piece.allSatisfy { $0.isASCII && $0.isNumber } }
        if pieces.count == 3, pieces.allSatisfy(isDigits) {
            do {
                return PartialVersion(try SemanticVersion(parsing: text))
            } catch {
                throw refuse("in '\(token)', \(error.description)")
            }
        }
        if core.count != text.count {
            throw refuse("'\(token)': a prerelease or build needs all three numbers (1.2.0-beta.1, not 1.2-beta.1)")
        }
        guard pieces.count <= 3 else { throw refuse("'\(token)' has more than three parts") }
        var parts: [PartialVersion.Part] = []
        for piece in pieces {
            if piece == "x" || piece == "X" || piece == "*" {
                parts.append(.wildcard(piece.first!))
            } else if isDigits(piece) {
                if case .wildcard = parts.last {
                    throw refuse("'\(token)' has a number after a wildcard; write 1.x, not x.1")
                }
                guard let value = UInt64(piece) else { throw refuse("in '\(token)', \(piece) is larger than \(UInt64.max)") }
                parts.append(.number(value))
            } else if piece.isEmpty {
                throw refuse("'\(token)' has an empty part")
            } else {
                throw refuse("'\(token)' is not a version: '\(piece)' is neither a number nor x, X or *")
            }
        }
        return PartialVersion(parts: parts)
    }

    private static func name(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\t": "a tab"
        case "\n", "\r": "a line break"
        default: scalar.value < 0x20 || scalar.value == 0x7F ? "a control character" : "'\(scalar)', which is not ASCII"
        }
    }
}
