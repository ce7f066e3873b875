import CDenABI
import FoundationEssentials

/// What a route resolves to: the module and the builder that serves it.
public struct RouteTarget: @unchecked Sendable {
    // `host` and the builder context live for the process lifetime (den_module.h).
    package var moduleID: String
    package var route: PluginRoute
    /// Registered with `DEN_ROUTE_REQUIRES_LOGIN`: opened only for a logged-in user (`RouteGuard`).
    package var requiresLogin: Bool { route.requiresLogin }
    package var host: UnsafePointer<den_host>
    /// Serialises builder calls: one lock per plugin, because a plugin may share one builder
    /// context between routes (den_module.h: never two calls at once for one builder_ctx).
    package var gate: BuilderGate

    package init(moduleID: String, route: PluginRoute, host: UnsafePointer<den_host>, gate: BuilderGate) {
        self.moduleID = moduleID
        self.route = route
        self.host = host
        self.gate = gate
    }
}
