import FoundationEssentials

/// The result of resolving a route: which module serves it, and with which parameters.
///
/// `parameters` holds the path placeholders (a catch-all's segments joined by `/`); `query` holds
/// the query string, one value per key (the last, when a key repeats), and `queryValues` every
/// value in order. They are kept as they are; the lookups below (`self[name]`, `int(_:)`, ...)
/// look in `parameters` first, so **a path parameter wins over a query parameter of the same
/// name** (a query cannot override what the path says).
public struct RouteMatch<Value: Sendable>: Sendable {
    public let value: Value
    /// The id of the module that registered the matching pattern.
    public let owner: String
    /// The matching pattern, as it was registered.
    public let pattern: String
    /// The route string as given to `resolve`.
    public let route: String
    /// Path placeholders by name, percent-decoded.
    public let parameters: [String: String]
    /// Query parameters by name, decoded (`+` is a space). When a key repeats (`id=1&id=2`), the
    /// last value wins; `queryValues` has them all.
    public let query: [String: String]
    /// Every value of each query parameter, in the order they appear in the route.
    public let queryValues: [String: [String]]

    /// A match whose query has every value of each key; `query` keeps the last of each.
    public init(
        value: Value, owner: String, pattern: String, route: String,
        parameters: [String: String], queryValues: [String: [String]]
    ) {
        self.value = value
        self.owner = owner
        self.pattern = pattern
        self.route = route
        self.parameters = parameters
        self.query = queryValues.compactMapValues(\.last)
        self.queryValues = queryValues
    }

    /// A match with one value per query key.
    public init(
        value: Value, owner: String, pattern: String, route: String,
        parameters: [String: String], query: [String: String]
    ) {
        self.init(value: value, owner: owner, pattern: pattern, route: route, parameters: parameters,
                  queryValues: query.mapValues { [$0] })
    }

    /// Every value of the query parameter `name`, in order; empty if the route has none.
    /// (Path parameters are not included: use `self[name]` for the single value that wins.)
    public func queryValues(_ name: String) -> [String] {
        queryValues[name] ?? []
    }

    /// The path parameter `name`, else the query parameter `name`.
    public subscript(_ name: String) -> String? {
        parameters[name] ?? query[name]
    }

    /// Same as `self[name]`.
    public func string(_ name: String) -> String? { self[name] }

    /// `self[name]` as an integer, if it is one by the `<int:>` rules (`-?digits`, within Int64).
    public func int(_ name: String) -> Int? {
        guard let text = self[name], RouteParameterType.int.accepts(text) else { return nil }
        return Int(text)
    }

    /// `self[name]` as a number, if it is one by the `<double:>` rules (e.g. `12.5`, `-3`).
    public func double(_ name: String) -> Double? {
        guard let text = self[name], RouteParameterType.double.accepts(text) else { return nil }
        return Double(text)
    }

    /// `self[name]` as a UUID, if it is one (8-4-4-4-12 hex digits, either case).
    public func uuid(_ name: String) -> UUID? {
        guard let text = self[name], RouteParameterType.uuid.accepts(text) else { return nil }
        return UUID(uuidString: text)
    }
}
