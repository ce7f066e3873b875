/// One `/`-separated piece of a parsed route pattern.
public enum RouteSegment: Sendable, Hashable, CustomStringConvertible {
    /// Matches exactly this text (case-sensitive) after the route's segment is percent-decoded.
    case literal(String)
    /// Captures a value of `type` under `name`. `.path` captures all remaining segments.
    case parameter(name: String, type: RouteParameterType)

    /// The segment as written in canonical pattern syntax, e.g. `jogs` or `<int:id>`.
    public var description: String {
        switch self {
        case .literal(let text): text
        case .parameter(let name, let type): "<\(type):\(name)>"
        }
    }

    /// The segment with the placeholder name dropped: what decides which paths it matches.
    var shape: String {
        switch self {
        case .literal(let text): text
        case .parameter(_, let type): "<\(type)>"
        }
    }
}
