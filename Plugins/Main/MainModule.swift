import DenKit

/// Main: the currency converter (ECB reference rates, cross rates through EUR).
public let mainModule = ModuleDefinition(
    id: "main",
    version: "1.0.0",
    summary: "Currency converter with ECB euro reference rates",
    routes: [
        RouteDefinition(MainRoutes.main, builder: MainBuilder.self),
        RouteDefinition(MainRoutes.convert, builder: MainBuilder.self),
    ],
    settings: MainSettings.all,
    exports: MainExportFunctions.all,
    navigation: [NavigationEntry(title: "Converter", route: MainRoutes.main, order: 10)])
