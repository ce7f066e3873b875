/// An immutable, compiled route table: resolves route strings to the module that serves them.
/// Safe to share between tasks and threads; `resolve` has no side effects.
///
/// Precedence, per path segment, from first tried to last:
/// **literal > `int` > `double` > `uuid` > `string` > catch-all (`path`)**: the more specific
/// kind first (`42` is both an int and a double, so `<int:a>` gets it). Registration order never
/// matters (`RoutePrecedence` says why). When the preferred branch cannot match the rest of the
/// path, the router backtracks and tries the next candidate: with `a/<string:x>/c` and `a/b/d`, the route `a/b/c`
/// matches `a/<string:x>/c`. Literals compare as exact bytes after percent-decoding
/// (case-sensitive, no Unicode normalization), as URL paths do.
public struct CompiledRouter<Value: Sendable>: Sendable {
    /// The compiled routes, in registration order.
    public let routes: [RegisteredRoute<Value>]
    @usableFromInline let core: RouteResolverCore

    init(routes: [RegisteredRoute<Value>]) {
        self.routes = routes
        self.core = RouteResolverCore(patterns: routes.map(\.pattern))
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
    @inlinable
    public func resolve(_ route: String) -> Result<RouteMatch<Value>, RouteResolutionError> {
        // Thin on purpose: inlined and specialized in the caller; the work is in the core.
        switch core.resolve(route) {
        case .success(let found):
            return .success(RouteMatch(
                value: routes[found.index].value, owner: routes[found.index].owner,
                pattern: routes[found.index].pattern.text, route: route,
                parameters: found.parameters, queryValues: found.queryValues))
        case .failure(let error):
            return .failure(error)
        }
    }
}
