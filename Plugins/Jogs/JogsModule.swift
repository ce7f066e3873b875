import DenKit

/// Jogs: a private jogging log per user (list with a date filter, detail with edit and delete,
/// weekly report). Every route needs a logged-in user: the host opens `login?next=<route>`
/// instead while nobody is, and the interactor checks the session's user again at every call.
public let jogsModule = ModuleDefinition(
    id: "jogs",
    version: "1.0.0",
    summary: "Jogging log: your runs, pace and a weekly report (log in first)",
    routes: [
        RouteDefinition(JogsRoutes.list, requiresLogin: true, builder: JogsBuilder.self),
        RouteDefinition(JogsRoutes.new, requiresLogin: true, builder: JogsBuilder.self),
        RouteDefinition(JogsRoutes.report, requiresLogin: true, builder: JogsBuilder.self),
        RouteDefinition(JogsRoutes.detail, requiresLogin: true, builder: JogsBuilder.self),
    ],
    exports: JogsExportFunctions.all,
    navigation: [NavigationEntry(title: "Jogs", route: JogsRoutes.list, order: 20, requiresLogin: true)])
