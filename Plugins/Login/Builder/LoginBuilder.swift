import DenKit

/// Assembles a Login stack for one of its routes and injects its dependencies; holds nothing
/// afterwards. The page comes from the matched pattern, `next` from the query.
/// Its builders are the routes of Manifest/module.json (`LoginRouteBuilding`, generated).
enum LoginBuilder {
    static func buildLogin(_ context: BuildContext) throws -> any ModuleInstance { try build(context) }
    static func buildLoginRegister(_ context: BuildContext) throws -> any ModuleInstance { try build(context) }
    static func buildLoginReset(_ context: BuildContext) throws -> any ModuleInstance { try build(context) }
    static func buildLoginPassword(_ context: BuildContext) throws -> any ModuleInstance { try build(context) }

    /// Every page is one stack; the matched pattern picks the page.
    static func build(_ context: BuildContext) throws -> any ModuleInstance {
        try assemble(context, dependencies: .host(context.host)).instance
    }

    /// The parts of one stack (the instance owns them; tests look inside).
    struct Stack {
        let instance: VIPERInstance
        let view: LoginView
        let presenter: LoginPresenter
        let interactor: LoginInteractor
        let router: LoginRouter
    }

    static func assemble(_ context: BuildContext, dependencies: LoginDependencies) throws -> Stack {
        guard let page = LoginRoutes.page(forPattern: context.pattern) else {
            let served = LoginPage.allCases.map(LoginRoutes.pattern(for:)).joined(separator: ", ")
            throw ModuleError.invalidParameter("the Login module does not serve '\(context.pattern)'; it serves \(served)")
        }
        // An unsafe `next` does not keep the page from opening: the login then goes to main,
        // and the page says so.
        var next: NextRoute?
        var nextProblem: NextRoute.Problem?
        do {
            next = try NextRoute.parse(context.query[LoginRoutes.nextKey])
        } catch {
            nextProblem = error
        }

        let navigation = Navigation()
        let interactor = LoginInteractor(auth: dependencies.auth, session: dependencies.session, log: dependencies.log,
                                         listeners: dependencies.listeners)
        let router = LoginRouter(navigation: navigation)
        let presenter = LoginPresenter(page: page, next: next, nextProblem: nextProblem,
                                       interactor: interactor, router: router)
        interactor.output = presenter
        let view = LoginView(presenter: presenter)
        presenter.view = view
        router.view = view
        let instance = VIPERInstance(view: view, navigation: navigation, state: LoginStateCodec(presenter: presenter))
        return Stack(instance: instance, view: view, presenter: presenter, interactor: interactor, router: router)
    }
}
