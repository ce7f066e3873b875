/// Why a route pattern was rejected. `description` says what is wrong, where, and how to fix it,
/// e.g. `Invalid route pattern "a//b": segment 2 is empty (two '/' in a row). Remove the extra '/'.`
public struct RoutePatternError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// Nothing but slashes (or nothing at all).
        case empty
        /// `a//b`.
        case emptySegment
        /// A `?` or `#`: patterns describe paths only.
        case queryOrFragment(Character)
        /// `<foo:x>`; the associated value is the unknown type's spelling.
        case unknownType(String)
        /// `<int:>`, `<int:1x>`, `<a-b>`: names must be identifiers.
        case invalidName(String)
        /// `<int>`: a type with no name (the short form `<name>` cannot use a type's spelling).
        case missingName(RouteParameterType)
        /// The same placeholder name twice in one pattern.
        case duplicateName(String)
        /// `<int:x` with no closing `>`.
        case unclosedPlaceholder
        /// A `>` with no `<` before it.
        case unopenedPlaceholder
        /// `<<x>>`: a `<` inside a placeholder.
        case nestedPlaceholder
        /// `<path:rest>` followed by more segments; associated value is the placeholder name.
        case catchAllNotLast(String)
        /// Literal text and a placeholder in one segment, e.g. `v<int:n>` or `<id>.json`.
        case mixedSegment
        /// A character that cannot appear verbatim in a route literal (space, `%`, `"`, ...).
        case invalidCharacter(Character)
        /// `.` or `..` as a whole segment: reserved by URL path semantics.
        case dotSegment
        /// The pattern text is longer (in UTF-8 bytes) than the longest route `resolve` accepts.
        case tooLong(byteCount: Int)
        /// Every route the pattern could match is longer than the longest route `resolve`
        /// accepts, so it could never match; the associated value is the shortest such route.
        case shortestRouteTooLong(byteCount: Int)
    }

    /// The pattern as written.
    public let pattern: String
    public let reason: Reason
    /// 1-based position of the offending segment (counted after leading slashes), if any.
    public let segmentNumber: Int?
    /// The offending segment's text, if any.
    public let segment: String?

    public init(pattern: String, reason: Reason, segmentNumber: Int? = nil, segment: String? = nil) {
        self.pattern = pattern
        self.reason = reason
        self.segmentNumber = segmentNumber
        self.segment = segment
    }

    public var description: String {
        let place: String
        if let segmentNumber, let segment {
            place = "segment \(segmentNumber) (\"\(segment)\")"
        } else if let segmentNumber {
            place = "segment \(segmentNumber)"
        } else {
            place = "the pattern"
        }
        let types = RouteParameterType.allCases.map(\.rawValue).joined(separator: ", ")
        let problem: String
        switch reason {
        case .empty:
            problem = "the pattern has no segments. Give at least one segment, e.g. \"about\" or \"jogs/<int:id>\"."
        case .emptySegment:
            problem = "segment \(segmentNumber ?? 0) is empty (two '/' in a row). Remove the extra '/'."
        case .queryOrFragment(let character):
            let part = character == "?" ? "a query string" : "a fragment"
            problem = "\(place) contains '\(character)', which starts \(part). Patterns describe paths only: "
                + "remove '\(character)' and what follows (query parameters of every route reach the module "
                + "in RouteMatch.query)."
        case .unknownType(let type) where type.isEmpty:
            problem = "\(place) has a placeholder with an empty type before ':'. "
                + "Write <name> for a string, or use one of: \(types) (e.g. <int:id>)."
        case .unknownType(let type):
            problem = "\(place) uses unknown placeholder type '\(type)'. Use one of: \(types) (e.g. <int:id>)."
        case .invalidName(let name) where name.isEmpty:
            problem = "\(place) has a placeholder without a name. Name it, e.g. <int:id> or <slug>."
        case .invalidName(let name):
            problem = "\(place) has invalid placeholder name '\(name)'. A name starts with a letter or '_' "
                + "and continues with letters, digits or '_' (e.g. <int:jog_id>)."
        case .missingName(let type):
            problem = "\(place) names a type but no placeholder. Write <\(type):name> (e.g. <\(type):id>); "
                + "the short form <name> is always a string and cannot be spelled like a type."
        case .duplicateName(let name):
            problem = "\(place) reuses placeholder name '\(name)'. Each placeholder in a pattern needs its own name."
        case .unclosedPlaceholder:
            problem = "\(place) opens a placeholder with '<' but never closes it. Add the missing '>' (e.g. <int:id>)."
        case .unopenedPlaceholder:
            problem = "\(place) has a '>' without a matching '<'. Write placeholders as <type:name>, "
                + "or remove the '>' (it cannot appear in a literal)."
        case .nestedPlaceholder:
            problem = "\(place) has a '<' inside a placeholder. Placeholders cannot nest: write one <type:name> per segment."
        case .catchAllNotLast(let name):
            problem = "\(place) is the catch-all <path:\(name)> but more segments follow it. "
                + "A catch-all takes every remaining segment, so it must be the last segment; "
                + "move it to the end or use <string:\(name)> for a single segment."
        case .mixedSegment:
            problem = "\(place) mixes literal text and a placeholder. A placeholder must be a whole segment: "
                + "split it with '/' (e.g. \"v/<int:n>\" instead of \"v<int:n>\")."
        case .invalidCharacter(let character):
            let shown = character.unicodeScalars.map { scalar in
                scalar.value < 0x20 || scalar.value == 0x7F || scalar == " "
                    ? routeScalarName(scalar) : String(scalar)
            }.joined()
            let fix = character == "%"
                ? "Percent-encoding is not allowed in patterns: write the character itself."
                : "Literals may use letters, digits, and - . _ ~ ! $ & ' ( ) * + , ; = : @."
            problem = "\(place) contains '\(shown)', which a route literal cannot contain. \(fix)"
        case .dotSegment:
            problem = "\(place) is a dot segment, which URL paths reserve for 'this/parent folder'. Use another name."
        case .tooLong(let byteCount):
            problem = "the pattern is \(byteCount) bytes long, over the limit of \(RouteLengthLimit.maximumByteCount) "
                + "bytes that a route may have. Shorten its literals or use fewer segments."
        case .shortestRouteTooLong(let byteCount):
            problem = "the shortest route it could match is \(byteCount) bytes long, over the limit of "
                + "\(RouteLengthLimit.maximumByteCount) bytes that a route may have, so it would never match "
                + "(a uuid takes 36 bytes, any other placeholder at least 1, each '/' 1). Shorten its literals or use fewer segments."
        }
        return "Invalid route pattern \"\(pattern)\": \(problem)"
    }
}

/// `U+000A` style spelling for characters that would be invisible in a message.
func routeScalarName(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
