#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a builder gets for a matched route: the parameters and the host's services.
public struct BuildContext: Sendable {
    /// The route as the user gave it, e.g. `convert/12.5/USD/EUR?source=ecb`.
    public var route: String
    /// The pattern that matched, e.g. `convert/<double:amount>/<string:from>/<string:to>`.
    public var pattern: String
    /// Placeholder values (already percent-decoded and type-checked by the host's router).
    public var parameters: [String: String]
    /// Query-string values; a key given more than once keeps its last value (see `queryValues`).
    public var query: [String: String]
    /// Every value of each query key, in order: `?tag=a&tag=b` gives `["tag": ["a", "b"]]`.
    public var queryValues: [String: [String]]
    public var host: HostServices

    public init(route: String, pattern: String, parameters: [String: String], query: [String: String],
                queryValues: [String: [String]]? = nil, host: HostServices) {
        self.route = route
        self.pattern = pattern
        self.parameters = parameters
        self.query = query
        self.queryValues = queryValues ?? query.mapValues { [$0] }
        self.host = host
    }

    /// Every value of query key `name`, in order; empty when the route has none.
    public func all(_ name: String) -> [String] {
        queryValues[name] ?? []
    }

    public func string(_ name: String) throws -> String {
        guard let value = parameters[name] ?? query[name] else {
            throw ModuleError.invalidParameter("route '\(route)' has no parameter '\(name)'")
        }
        return value
    }

    public func int(_ name: String) throws -> Int {
        let text = try string(name)
        guard let value = Int(text) else {
            throw ModuleError.invalidParameter("parameter '\(name)' must be a whole number, got '\(text)'")
        }
        return value
    }

    public func double(_ name: String) throws -> Double {
        let text = try string(name)
        guard let value = Double(text), value.isFinite else {
            throw ModuleError.invalidParameter("parameter '\(name)' must be a number, got '\(text)'")
        }
        return value
    }
}

/// The JSON the host passes to a builder (see `den_builder_fn`).
public struct BuildRequest: Codable, Sendable, Equatable {
    public var route: String
    public var pattern: String
    public var parameters: [String: String]
    public var query: [String: String]
    /// Every value of each query key, in order (`?id=1&id=2`); optional on the wire (a host
    /// older than this key sends none, and then `query` is all there is).
    public var queryValues: [String: [String]]?

    public init(route: String, pattern: String, parameters: [String: String], query: [String: String],
                queryValues: [String: [String]]? = nil) {
        self.route = route
        self.pattern = pattern
        self.parameters = parameters
        self.query = query
        self.queryValues = queryValues
    }
}
