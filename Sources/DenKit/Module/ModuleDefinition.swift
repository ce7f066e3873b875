/// What a plugin declares: its identity and the routes it serves.
public struct ModuleDefinition: Sendable {
    public var id: String
    public var version: String
    public var summary: String
    public var routes: [RouteDefinition]

    public init(id: String, version: String, summary: String, routes: [RouteDefinition]) {
        self.id = id
        self.version = version
        self.summary = summary
        self.routes = routes
    }
}

/// A route pattern and the builder that assembles a module instance for it.
public struct RouteDefinition: Sendable {
    public var pattern: String
    public var build: @Sendable (BuildContext) throws -> any ModuleInstance

    public init(_ pattern: String, build: @escaping @Sendable (BuildContext) throws -> any ModuleInstance) {
        self.pattern = pattern
        self.build = build
    }

    public init<B: ModuleBuilder>(_ pattern: String, builder: B.Type) {
        self.init(pattern) { try B.build($0) }
    }
}
