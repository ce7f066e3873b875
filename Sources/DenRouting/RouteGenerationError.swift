/// Why `RouteURLBuilder` could not build a route from a pattern and parameters.
public enum RouteGenerationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern text itself is invalid.
    case invalidPattern(RoutePatternError)
    /// The pattern has placeholder `name` but `parameters` has no value for it.
    case missingParameter(name: String, type: RouteParameterType, pattern: String)
    /// The value for `name` is not a valid `type` (or, for any type, is empty or has control characters).
    case invalidParameter(name: String, value: String, type: RouteParameterType, pattern: String)
    /// An extra parameter (sent as a query parameter) has an empty name, which no route can carry.
    case emptyQueryParameterName(pattern: String)
    /// The route would exceed the 2,048-byte limit that `resolve` enforces.
    case tooLong(byteCount: Int, pattern: String)

    public var description: String {
        switch self {
        case .invalidPattern(let error):
            return "Cannot build a route: \(error)"
        case .missingParameter(let name, let type, let pattern):
            return "Cannot build a route from pattern \"\(pattern)\": parameter \"\(name)\" is missing. "
                + "Pass a value for <\(type):\(name)>, which expects \(type.expectation)."
        case .invalidParameter(let name, let value, let type, let pattern):
            return "Cannot build a route from pattern \"\(pattern)\": parameter \"\(name)\" is "
                + "\(RouteResolutionError.quoted(value)), but <\(type):\(name)> expects \(type.expectation)."
        case .emptyQueryParameterName(let pattern):
            return "Cannot build a route from pattern \"\(pattern)\": an extra parameter has an empty name, "
                + "and extra parameters become query parameters, which need a name. Remove it or name it."
        case .tooLong(let byteCount, let pattern):
            return "Cannot build a route from pattern \"\(pattern)\": it would be \(byteCount) bytes long, over the "
                + "limit of \(RouteStringParser.maximumByteCount). Pass less data in the route."
        }
    }
}
