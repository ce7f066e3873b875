import DenKit

/// Assembles the About stack and injects its services. Its builder per route is what
/// Manifest/module.json declares (`AboutRouteBuilding`, generated).
enum AboutBuilder {
    static func buildAbout(_ context: BuildContext) throws -> any ModuleInstance {
        let parts = assemble(catalog: HostPluginCatalog(context.host))
        return VIPERInstance(view: parts.view, navigation: parts.navigation)
    }

    /// The wiring, separate from the host so tests can inject mocks.
    static func assemble(appInfo: AppInfo = .den, catalog: any PluginCatalog)
        -> (view: AboutView, presenter: AboutPresenter, interactor: AboutInteractor, router: AboutRouter, navigation: Navigation) {
        let navigation = Navigation()
        let interactor = AboutInteractor(appInfo: appInfo, catalog: catalog)
        let router = AboutRouter(navigation: navigation)
        let presenter = AboutPresenter(interactor: interactor, router: router)
        let view = AboutView(presenter: presenter)
        interactor.output = presenter
        presenter.view = view
        router.view = view
        return (view, presenter, interactor, router, navigation)
    }
}
