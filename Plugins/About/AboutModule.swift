import DenKit

/// The About module: who made the app, which version it is, which modules are installed.
public let aboutModule = ModuleDefinition(
    id: "about", version: "1.0.0", summary: "About the app: name, version, description and installed modules",
    routes: [RouteDefinition("about", builder: AboutBuilder.self)],
    navigation: [NavigationEntry(title: "About", route: "about", order: 90)])
