/// A validated route pattern such as `jogs/<int:id>` or `files/<path:rest>`.
///
/// Syntax: segments separated by `/` (leading and trailing slashes are ignored). A segment is
/// either a literal or exactly one placeholder `<type:name>` / `<name>` (see `RouteParameterType`;
/// names are `[A-Za-z_][A-Za-z0-9_]*`, unique within the pattern; `<path:name>` only last).
/// Literals may use ASCII letters and digits, `- . _ ~ ! $ & ' ( ) * + , ; = : @` and visible
/// non-ASCII characters (not `.`/`..`, no `%`-escapes); they match case-sensitively, byte for
/// byte against the percent-decoded route segment (no Unicode normalization). A pattern must fit
/// in the 2,048-byte route limit, both as text and as the shortest route it could match.
/// Parsing reports the first problem as a `RoutePatternError` that says what, where and how to fix.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern exactly as it was written; used in messages and `RouteMatch.pattern`.
    public let text: String
    public let segments: [RouteSegment]
    /// The pattern with placeholder names dropped, e.g. `jogs/<int>`. Two patterns with the same
    /// shape match exactly the same routes, which is what makes them conflict. Kept, not
    /// recomputed: registration asks for it several times per route.
    public let shape: String

    public init(_ text: String) throws(RoutePatternError) {
        self.text = text
        self.segments = try RoutePatternParser.parse(text)
        // A plain loop: `joined` over a lazy map is generic code the runtime instantiates on a
        // start's first pattern (docs/START_PATH.md, "What a fresh process pays for").
        var shape = ""
        for (index, segment) in segments.enumerated() {
            if index > 0 { shape += "/" }
            shape += segment.shape
        }
        self.shape = shape
    }

    public var description: String { text }

    /// Placeholder names in order of appearance.
    public var parameterNames: [String] {
        segments.compactMap {
            if case .parameter(let name, _) = $0 { name } else { nil }
        }
    }

    /// The declared type of the placeholder `name`, if the pattern has one.
    public func parameterType(named name: String) -> RouteParameterType? {
        for case .parameter(name, let type) in segments { return type }
        return nil
    }
}
