import DenHost
import DenWebPages
import Hummingbird

/// A request span's name, as OpenTelemetry's HTTP conventions have it: the method and the route
/// pattern (`GET jogs/<int:id>`), never the raw path, so that one name stands for one kind of
/// request; the method alone when no module serves the path.
enum RequestSpanName {
    /// den's own addresses: each is its own kind of request.
    static let fixedPaths: Set<String> = ["/_health", PageAssets.stylesheetPath, PageAssets.scriptPath,
                                          FormNames.actionPath, FormNames.backPath, FormNames.changePath, FormNames.logoutPath]

    static func of(_ request: Request, registry: ModuleRegistry) -> String {
        let method = request.method.rawValue
        let path = request.uri.path
        if fixedPaths.contains(path) { return "\(method) \(path)" }
        if path.hasPrefix("/_") && !path.hasPrefix("/_screen/") { return method }
        let isJSON = path.hasPrefix("/_screen/")
        let route = RouteLocation.route(path: isJSON ? String(path.dropFirst("/_screen".count)) : path, query: nil)
        guard case .success(let match) = registry.resolve(route) else { return method }
        return "\(method) \(isJSON ? "/_screen/" : "")\(match.pattern)"
    }
}

extension HTTPFields.Element.Name {
    static let traceparent = Self("traceparent")!
}
