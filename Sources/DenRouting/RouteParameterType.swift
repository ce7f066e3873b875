/// The kinds of value a placeholder accepts. The raw value is the spelling used in patterns,
/// as in `<int:id>`; `<name>` alone is short for `<string:name>`.
///
/// What each type accepts, exactly (one path segment, after percent-decoding):
/// - `int`: an optional leading `-` then one or more ASCII digits, within `Int64`
///   (`42`, `-7`, `007`; not `+1`, `1_000`, `9223372036854775808`).
/// - `double`: an optional leading `-`, one or more digits, then optionally `.` and one or more
///   digits (`12.5`, `-3`, `0.5`). No exponent, no bare `.5` or `5.`, no `nan`/`inf`, and the
///   value must be finite. Kept this strict so a route has one spelling per number.
/// - `uuid`: 8-4-4-4-12 hexadecimal digits, either case (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`).
/// - `string`: any one non-empty segment except `.` and `..` (which no route may contain).
/// - `path`: the catch-all; one or more remaining segments, joined by `/`. Last segment only.
public enum RouteParameterType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case int
    case double
    case uuid
    case string
    case path

    public var description: String { rawValue }

    /// What a value of this type looks like, in words, for error messages.
    public var expectation: String {
        switch self {
        case .int: "an integer: optional '-' then digits, within Int64 (e.g. 42, -7)"
        case .double: "a finite decimal number: optional '-', digits, optional '.' and digits (e.g. 12.5, -3)"
        case .uuid: "a UUID: 8-4-4-4-12 hexadecimal digits (e.g. E621E1F8-C36C-495A-93FC-0C247A3E6E5F)"
        case .string: "any non-empty text without control characters, other than '.' and '..'"
        case .path: "one or more non-empty segments separated by '/', none of them '.' or '..' (e.g. docs/guide.md)"
        }
    }

    /// Whether one (decoded) segment is a valid value of this type. For `.path` this checks one
    /// segment of the catch-all, which accepts any non-empty segment.
    public func accepts(_ segment: some StringProtocol) -> Bool {
        var text = String(segment)
        return text.withUTF8 { RouteSegmentMatcher.matches(self, $0) }
    }
}
