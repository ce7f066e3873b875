/// What a plugin declares: its identity, the routes it serves and its settings.
public struct ModuleDefinition: Sendable {
    public var id: String
    public var version: String
    public var summary: String
    public var routes: [RouteDefinition]
    /// Declared to the host at load (`settings.declare`), so `den config` can list and check them.
    public var settings: [SettingDefinition]
    /// Functions other modules and `den call` may call (ABI revision 2; `ExportDefinition`).
    public var exports: [ExportDefinition]
    /// Where the module appears in the app's navigation (the browser's app bar, the terminal's
    /// `menu`); none by default. The manifest lists the same entries (`"navigation"`).
    public var navigation: [NavigationEntry]
    /// What it may touch beyond its own data, as its manifest's `permissions` says (docs/PERMISSIONS.md).
    /// A plugin file's are read from its `den_manifest`; these count for a module an embedder
    /// links into den's process, where nil leaves it unchecked (its code is the embedder's own).
    public var permissions: ModulePermissions?

    public init(id: String, version: String, summary: String, routes: [RouteDefinition],
                settings: [SettingDefinition] = [], exports: [ExportDefinition] = [], navigation: [NavigationEntry] = [],
                permissions: ModulePermissions? = nil) {
        self.id = id
        self.version = version
        self.summary = summary
        self.routes = routes
        self.settings = settings
        self.exports = exports
        self.navigation = navigation
        self.permissions = permissions
    }
}

/// A route pattern and the builder that assembles a module instance for it.
public struct RouteDefinition: Sendable {
    public var pattern: String
    /// The host opens the login route instead (with `next=<route>`) while nobody is logged in,
    /// and never calls `build` then (`DEN_ROUTE_REQUIRES_LOGIN`, ABI revision 1).
    public var requiresLogin: Bool
    public var build: @Sendable (BuildContext) throws -> any ModuleInstance

    public init(_ pattern: String, requiresLogin: Bool = false,
                build: @escaping @Sendable (BuildContext) throws -> any ModuleInstance) {
        self.pattern = pattern
        self.requiresLogin = requiresLogin
        self.build = build
    }

    public init<B: ModuleBuilder>(_ pattern: String, requiresLogin: Bool = false, builder: B.Type) {
        self.init(pattern, requiresLogin: requiresLogin) { try B.build($0) }
    }
}
