import DenKit

/// Assembles a Jogs stack for a route and injects its dependencies; holds nothing afterwards.
/// One view, interactor and router for every route; the presenter is the route's own.
/// Its builders are the routes of Manifest/module.json (`JogsRouteBuilding`, generated).
enum JogsBuilder {
    static func buildJogs(_ context: BuildContext) throws -> any ModuleInstance { build(context, .list) }
    static func buildJogsNew(_ context: BuildContext) throws -> any ModuleInstance { build(context, .new) }
    static func buildJogsReport(_ context: BuildContext) throws -> any ModuleInstance { build(context, .report) }
    /// `jogs/<int:id>`. The route's own spelling of the id ("007") is kept to name it on "Jog not found".
    static func buildJogs(_ context: BuildContext, id: Int) throws -> any ModuleInstance {
        build(context, .detail(id: id, text: context.parameters["id"] ?? String(id)))
    }

    /// Which screen a route opens, with what its builder was given.
    enum Destination: Equatable {
        case list, new, report
        /// `text` is the id as the route spelled it, which the screen names.
        case detail(id: Int, text: String)
    }

    /// One view, interactor and router for every route; `destination` picks the presenter.
    static func build(_ context: BuildContext, _ destination: Destination) -> any ModuleInstance {
        assemble(context, destination, dependencies: .host(context.host)).instance
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
    static func assemble(_ context: BuildContext, _ destination: Destination, dependencies: JogsDependencies) -> Stack {
        let interactor = JogsInteractor(repository: StorageJogRepository(dependencies.store, log: dependencies.log),
                                        users: SessionCurrentUser(session: dependencies.session),
                                        clock: dependencies.clock, log: dependencies.log,
                                        notices: SessionNoticeBoard(session: dependencies.session))
        let navigation = Navigation()
        let router = JogsRouter(navigation: navigation)
        let presenter = presenter(for: destination, context, interactor: interactor, router: router)
        let view = JogsView(presenter: presenter)
        presenter.view = view
        router.view = view
        let instance = VIPERInstance(view: view, navigation: navigation, state: JogsStateCodec(presenter: presenter))
        return Stack(instance: instance, view: view, presenter: presenter, interactor: interactor, router: router)
    }

    /// The presenter of `destination`; the list and the report read their filter and page from the query.
    static func presenter(for destination: Destination, _ context: BuildContext, interactor: any JogsInteractorInput,
                          router: any JogsRouterInput) -> any JogsPresenterInput {
        switch destination {
        case .new:
            return JogFormPresenter(interactor: interactor, router: router)
        case .report:
            return JogReportPresenter(interactor: interactor, page: JogPage.number(from: context.query["page"]))
        case .detail(let id, let text):
            // Ids start at 1: 0 and below are no one's jog.
            return JogDetailPresenter(interactor: interactor, router: router, id: id > 0 ? id : nil, idText: text)
        case .list:
            return JogListPresenter(interactor: interactor, route: context.route,
                                    from: context.query["from"], to: context.query["to"], page: JogPage.number(from: context.query["page"]))
        }
    }
}
