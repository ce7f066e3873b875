/// Builds route strings from a pattern and parameters: the inverse of `CompiledRouter.resolve`.
///
/// Each placeholder is filled from `parameters` after checking the value against its type, then
/// percent-encoded (everything outside `A-Z a-z 0-9 - . _ ~`), so any valid value survives the
/// trip: a space, `?`, `/` in a `<string:>` value, unicode. A `<path:>` value is split on `/` and
/// each part encoded. Parameters the pattern does not use are appended as a query string, sorted
/// by name. For every route built, `resolve(route)` gives back `parameters` (path placeholders in
/// `RouteMatch.parameters`, the extras in `RouteMatch.query`).
public enum RouteURLBuilder: Sendable {
    /// - Throws: `RouteGenerationError`: invalid pattern, missing or invalid parameter, too long.
    public static func route(
        for pattern: String, parameters: [String: String] = [:]
    ) throws(RouteGenerationError) -> String {
        let parsed: RoutePattern
        do { parsed = try RoutePattern(pattern) } catch { throw .invalidPattern(error) }
        return try route(for: parsed, parameters: parameters)
    }

    public static func route(
        for pattern: RoutePattern, parameters: [String: String] = [:]
    ) throws(RouteGenerationError) -> String {
        var route = ""
        var used = Set<String>()
        for segment in pattern.segments {
            if !route.isEmpty { route += "/" }
            switch segment {
            case .literal(let text):
                route += RoutePercentEncoding.encode(text, keepSubDelimiters: true)
            case .parameter(let name, let type):
                guard let value = parameters[name] else {
                    throw .missingParameter(name: name, type: type, pattern: pattern.text)
                }
                guard isValid(value, for: type) else {
                    throw .invalidParameter(name: name, value: value, type: type, pattern: pattern.text)
                }
                used.insert(name)
                route += type == .path
                    ? value.split(separator: "/").map { RoutePercentEncoding.encode(String($0)) }.joined(separator: "/")
                    : RoutePercentEncoding.encode(value)
            }
        }

        let extras = parameters.filter { !used.contains($0.key) }
        if !extras.isEmpty {
            guard !extras.keys.contains("") else { throw .emptyQueryParameterName(pattern: pattern.text) }
            route += "?" + QueryString.encode(extras)
        }
        let byteCount = route.utf8.count
        guard byteCount <= RouteStringParser.maximumByteCount else {
            throw .tooLong(byteCount: byteCount, pattern: pattern.text)
        }
        return route
    }

    /// What `resolve` would accept back for this placeholder type.
    private static func isValid(_ value: String, for type: RouteParameterType) -> Bool {
        guard !value.unicodeScalars.contains(where: RoutePercentEncoding.isControl) else { return false }
        switch type {
        case .path:
            // Empty parts ("a//b", "/a") and dot parts ("a/../b") would not survive: resolve refuses them.
            return !value.isEmpty && value.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
                !$0.isEmpty && $0 != "." && $0 != ".."
            }
        default:
            return type.accepts(value)
        }
    }
}
