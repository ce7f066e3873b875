import DenKit

/// What the view tells the presenter.
protocol AboutPresenterInput: AnyObject {
    func viewDidAppear()
    func didTapClose()
    func didTapWebsite()
}

final class AboutPresenter: AboutPresenterInput, AboutInteractorOutput, ModulePresenter {
    weak var view: (any AboutViewInput)?
    private let interactor: any AboutInteractorInput
    private let router: any AboutRouterInput
    private var viewObject = AboutViewObject.loading
    private var website: String?

    init(interactor: any AboutInteractorInput, router: any AboutRouterInput) {
        self.interactor = interactor
        self.router = router
    }

    func viewDidAppear() {
        interactor.loadAppInfo()
        interactor.loadModules()
    }

    func didTapClose() {
        router.close()
    }

    func didTapWebsite() {
        guard let website else { return }
        router.open(website: website)
    }

    func didLoad(appInfo: AppInfo) {
        website = appInfo.website
        viewObject.name = appInfo.name
        viewObject.versionLine = "Version \(appInfo.version)"
        viewObject.description = appInfo.description
        viewObject.websiteTitle = "Visit the project site"
        view?.display(viewObject)
    }

    func didLoad(modules: [LoadedModule]) {
        viewObject.modules = modules.map { .init(title: "\($0.id) \($0.version)", detail: $0.summary) }
        viewObject.modulesError = nil
        view?.display(viewObject)
    }

    func didFailToLoadModules(_ message: String) {
        viewObject.modules = []
        viewObject.modulesError = message
        view?.display(viewObject)
    }
}
