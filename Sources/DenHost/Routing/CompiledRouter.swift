/// An immutable, compiled route table: resolves route strings to the module that serves them.
/// Safe to share between tasks and threads; `resolve` has no side effects.
///
/// Precedence, per path segment, from first tried to last:
/// **literal > typed (`int`, `double`, `uuid`) > `string` > catch-all (`path`)**.
/// Typed placeholders that accept the same segment (`<int:a>` and `<double:b>` both accept
/// `42`) are tried in registration order (of the first route that used that placeholder type at
/// that position). When the preferred branch cannot match the rest of the path, the router
/// backtracks and tries the next candidate: with `a/<string:x>/c` and `a/b/d`, the route `a/b/c`
/// matches `a/<string:x>/c`.
public struct CompiledRouter<Value: Sendable>: Sendable {
    /// What `resolve` extracts for one placeholder of one route.
    private struct Capture: Sendable {
        let segmentIndex: Int
        let name: String
        let isCatchAll: Bool
    }

    /// The compiled routes, in registration order.
    public let routes: [RegisteredRoute<Value>]
    private let trie: RouteTrie
    private let captures: [[Capture]]

    init(routes: [RegisteredRoute<Value>]) {
        self.routes = routes
        var trie = RouteTrie()
        for (index, route) in routes.enumerated() {
            trie.insert(route.pattern.segments, route: index)
        }
        self.trie = trie
        self.captures = routes.map { route in
            route.pattern.segments.enumerated().compactMap { index, segment in
                guard case .parameter(let name, let type) = segment else { return nil }
                return Capture(segmentIndex: index, name: name, isCatchAll: type == .path)
            }
        }
    }

    /// An empty router (resolves nothing).
    public init() {
        self.init(routes: [])
    }

    /// Finds the route serving `route`, e.g. `jogs/42` or `convert/12.5/USD/EUR?x=1#top`.
    ///
    /// The path is split on `/` (leading/trailing slashes ignored) and each segment is
    /// percent-decoded before matching; the query is parsed by `QueryString.parse`; a `#fragment`
    /// is dropped. Returns `.malformed` for routes that cannot be parsed (empty, over 2,048 bytes,
    /// control characters, bad percent-encoding, empty segments) and `.notFound` when no pattern
    /// matches. Never traps, whatever the input.
    public func resolve(_ route: String) -> Result<RouteMatch<Value>, RouteResolutionError> {
        let parsed: ParsedRoute
        switch RouteStringParser.parse(route) {
        case .success(let value): parsed = value
        case .failure(let reason): return .failure(.malformed(route, reason: reason))
        }
        var query: [String: String] = [:]
        if let rawQuery = parsed.query {
            do { query = try QueryString.parse(rawQuery) } catch { return .failure(.malformed(route, reason: error)) }
        }
        guard let index = trie.match(parsed.segments) else { return .failure(.notFound(route)) }

        let entry = routes[index]
        var parameters: [String: String] = [:]
        let routeCaptures = captures[index]
        if !routeCaptures.isEmpty {
            parameters.reserveCapacity(routeCaptures.count)
            for capture in routeCaptures {
                parameters[capture.name] = capture.isCatchAll
                    ? parsed.segments[capture.segmentIndex...].joined(separator: "/")
                    : String(parsed.segments[capture.segmentIndex])
            }
        }
        return .success(RouteMatch(
            value: entry.value, owner: entry.owner, pattern: entry.pattern.text, route: route,
            parameters: parameters, query: query))
    }
}
