import DenKit

/// Builder: assembles the stack for a route's parameters.
enum GreeterBuilder: ModuleBuilder {
    static func build(_ context: BuildContext) throws -> any ModuleInstance {
        let navigation = Navigation()
        let presenter = GreeterPresenter(name: context.parameters["name"] ?? "", interactor: GreeterInteractor(),
                                         router: GreeterRouter(navigation: navigation))
        return VIPERInstance(view: GreeterView(presenter: presenter), navigation: navigation)
    }
}
