/// Why `CompiledRouter.resolve(_:)` found no module for a route. Both cases carry the route as given.
public enum RouteResolutionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The route is well-formed but no registered pattern matches its path.
    case notFound(String)
    /// The route could not be parsed; nothing was matched.
    case malformed(String, reason: MalformedRouteReason)

    /// The route string as given to `resolve`.
    public var route: String {
        switch self {
        case .notFound(let route), .malformed(let route, _): route
        }
    }

    public var description: String {
        switch self {
        case .notFound(let route):
            "No module serves the route \(Self.quoted(route)): no registered pattern matches its path. "
                + "Check the spelling, or whether the module that serves it is loaded."
        case .malformed(let route, let reason):
            "Malformed route \(Self.quoted(route)): \(reason)."
        }
    }

    /// The route in quotes, with control characters made visible and very long routes shortened,
    /// so a message stays one readable line whatever the input.
    static func quoted(_ route: String) -> String {
        let limit = 120
        var shown = ""
        var count = 0
        for scalar in route.unicodeScalars {
            if count == limit {
                shown += "…"
                break
            }
            switch scalar {
            case "\"": shown += "\\\""
            case "\\": shown += "\\\\"
            default: shown += RoutePercentEncoding.isControl(scalar) ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }
            count += 1
        }
        return "\"" + shown + "\""
    }
}
