import DenKit

/// Assembles a Jogs stack for a route and injects its dependencies; holds nothing afterwards.
/// One view, interactor and router for every route; the presenter is the route's own.
/// Its builders are the routes of Manifest/module.json (`JogsRouteBuilding`, generated).
enum JogsBuilder {
    static func buildJogs(_ context: BuildContext) throws -> any ModuleInstance { build(context) }
    static func buildJogsNew(_ context: BuildContext) throws -> any ModuleInstance { build(context) }
    static func buildJogsReport(_ context: BuildContext) throws -> any ModuleInstance { build(context) }
    /// The presenter reads the id's text as well, to name it on "Jog not found".
    static func buildJogs(_ context: BuildContext, id: Int) throws -> any ModuleInstance { build(context) }

    /// One view, interactor and router for every route; the matched pattern picks the presenter.
    static func build(_ context: BuildContext) -> any ModuleInstance {
        assemble(context, dependencies: .host(context.host)).instance
    }

    /// The parts of one stack (the instance owns them; tests look inside).
    struct Stack {
        let instance: VIPERInstance
        let view: JogsView
        let presenter: any JogsPresenterInput
        let interactor: JogsInteractor
        let router: JogsRouter
    }

    /// Never throws: every route opens a screen, and what cannot be shown (nobody logged in, a
    /// jog that is not the user's, a bad filter) is said on it, in Jogs' own words.
    static func assemble(_ context: BuildContext, dependencies: JogsDependencies) -> Stack {
        let interactor = JogsInteractor(repository: StorageJogRepository(dependencies.store, log: dependencies.log),
                                        users: SessionCurrentUser(session: dependencies.session),
                                        clock: dependencies.clock, log: dependencies.log,
                                        notices: SessionNoticeBoard(session: dependencies.session))
        let navigation = Navigation()
        let router = JogsRouter(navigation: navigation)
        let presenter = presenter(for: context, interactor: interactor, router: router)
        let view = JogsView(presenter: presenter)
        presenter.view = view
        router.view = view
        let instance = VIPERInstance(view: view, navigation: navigation, state: JogsStateCodec(presenter: presenter))
        return Stack(instance: instance, view: view, presenter: presenter, interactor: interactor, router: router)
    }

    static func presenter(for context: BuildContext, interactor: any JogsInteractorInput,
                          router: any JogsRouterInput) -> any JogsPresenterInput {
        switch context.pattern {
        case JogsRoutes.new:
            return JogFormPresenter(interactor: interactor, router: router)
        case JogsRoutes.report:
            return JogReportPresenter(interactor: interactor, page: JogPage.number(from: context.query["page"]))
        case JogsRoutes.detail:
            let text = context.parameters["id"] ?? ""
            // The router checked the digits; a number beyond Int is no one's jog.
            return JogDetailPresenter(interactor: interactor, router: router, id: Int(text).flatMap { $0 > 0 ? $0 : nil },
                                      idText: text)
        default:
            return JogListPresenter(interactor: interactor, route: context.route,
                                    from: context.query["from"], to: context.query["to"], page: JogPage.number(from: context.query["page"]))
        }
    }
}
