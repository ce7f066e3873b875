import DenKit

/// Builder: one builder per route of Manifest/module.json (`GreeterRouteBuilding`, generated),
/// each assembling the stack and wiring the weak back references.
enum GreeterBuilder {
    static func buildHello(_ context: BuildContext) throws -> any ModuleInstance {
        assemble(name: "").instance
    }

    static func buildHello(_ context: BuildContext, name: String) throws -> any ModuleInstance {
        assemble(name: name).instance
    }

    static func assemble(name: String) -> (instance: VIPERInstance, view: GreeterView, presenter: GreeterPresenter) {
        let navigation = Navigation()
        let router = GreeterRouter(navigation: navigation)
        let presenter = GreeterPresenter(name: name, interactor: GreeterInteractor(), router: router)
        let view = GreeterView(presenter: presenter)
        presenter.view = view
        router.view = view
        return (VIPERInstance(view: view, navigation: navigation), view, presenter)
    }
}
