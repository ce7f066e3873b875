/// A place in the app's navigation that a module contributes: the host draws the entries of the
/// loaded modules on every page (the browser's app bar, the terminal's `menu`), in `order`, then
/// by title. Declared in the module's manifest (`"navigation"`) and its `ModuleDefinition`.
public struct NavigationEntry: Codable, Sendable, Equatable, Hashable {
    /// What the entry says ("Jogs"): one line, at most `maximumTitleLength` characters.
    public var title: String
    /// The route it opens: one the module itself serves, with no placeholder left ("jogs").
    public var route: String
    /// Lower comes first; entries of equal order are sorted by title. 0 when left out.
    public var order: Int
    /// The route needs a logged-in user: the host shows the entry to everyone, marked so, and
    /// its route guard asks for a login first. False when left out.
    public var requiresLogin: Bool

    /// The longest title the host draws.
    public static let maximumTitleLength = 40
    /// The most entries one module may contribute.
    public static let maximumCount = 8

    public init(title: String, route: String, order: Int = 0, requiresLogin: Bool = false) {
        self.title = title
        self.route = route
        self.order = order
        self.requiresLogin = requiresLogin
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        route = try container.decode(String.self, forKey: .route)
        order = try container.decodeIfPresent(Int.self, forKey: .order) ?? 0
        requiresLogin = try container.decodeIfPresent(Bool.self, forKey: .requiresLogin) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(order, forKey: .order)
        if requiresLogin { try container.encode(true, forKey: .requiresLogin) }
        try container.encode(route, forKey: .route)
        try container.encode(title, forKey: .title)
    }

    private enum CodingKeys: String, CodingKey { case title, route, order, requiresLogin }

    /// What is wrong with the entry, or nil: the rule the host applies to a manifest.
    public var problem: String? {
        if title.isEmpty || title.count > Self.maximumTitleLength || title.contains(where: \.isNewline) {
            return "navigation entry title '\(title.prefix(60))' must be 1-\(Self.maximumTitleLength) characters on one line"
        }
        if route.isEmpty || route.contains("<") || route.hasPrefix("/") {
            return "navigation entry '\(title)' has route '\(route.prefix(200))'; give a route to open, such as \"jogs\" (no leading '/', no placeholder)"
        }
        return nil
    }
}
