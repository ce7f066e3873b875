import DenKit

/// Assembles the swift-faults stack, with its state codec.
/// Run it only isolated (`--isolate swift-faults`): in-process, each fault ends den.
/// Manifest/module.json declares its one route; `SwiftFaultsRouteBuilding` (generated) asks for this builder.
enum SwiftFaultsBuilder {
    static func buildSwiftFaults(_ context: BuildContext) throws -> any ModuleInstance {
        let navigation = Navigation()
        let interactor = SwiftFaultsInteractor()
        let router = SwiftFaultsRouter(navigation: navigation)
        let presenter = SwiftFaultsPresenter(interactor: interactor, router: router)
        let view = SwiftFaultsView(presenter: presenter)
        presenter.view = view
        router.view = view
        return VIPERInstance(view: view, navigation: navigation, state: SwiftFaultsStateCodec.make(presenter: presenter))
    }
}
