/// The fixed order in which a segment's candidates are tried (README, "### Routes"):
/// **literal > `int` > `double` > `uuid` > `string` > catch-all (`path`)**, with backtracking.
///
/// Why this order: each kind is tried before the kinds that accept more. Every `int` is also a
/// `double` (the `<int:>` spelling is a subset of the `<double:>` one), so `int` goes first;
/// `uuid` values are never numbers, so its place among the typed kinds changes nothing; `string`
/// accepts any one segment and the catch-all any number of them. The order depends only on the
/// kinds, never on registration order, and the search returns the first pattern in that order that
/// matches, so the answer is a function of the route and the *set* of patterns: reordering them,
/// or adding one that does not match the route, cannot change it.
///
/// Why no placeholder can be starved by a sibling: no kind is tried after a kind that includes
/// all its values, so each placeholder keeps values no preferred sibling takes (an `int` that is
/// no literal, a `double` that is no `int`, a `uuid` that is no literal, a `string` that is
/// neither a literal, a number nor a uuid); literals are finite, the other sets are not.
/// The one pattern that more preferred ones can still cover completely is a catch-all: `a/<s>`
/// plus `a/<s>/<path:r>` take every route `a/<path:p>` could match. `RouteReachability` finds
/// exactly that case, and `RouteTable` refuses it at registration (`RouteUnreachableError`).
enum RoutePrecedence {
    /// Rank among the typed placeholders that share a trie node: lower is tried first.
    static func typedRank(_ type: RouteParameterType) -> Int {
        switch type {
        case .int: 0
        case .double: 1
        case .uuid: 2
        case .string: 3
        case .path: 4
        }
    }
}
