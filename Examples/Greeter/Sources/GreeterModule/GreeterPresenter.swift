import DenKit

/// What the view tells the presenter.
protocol GreeterPresenterInput: AnyObject {
    func viewDidAppear()
    func didSubmit(name: String)
    func didTapAbout()
}

/// Presenter: turns the interactor's greeting into a `GreeterViewObject` and pushes it into the
/// view; "About" goes to the router.
final class GreeterPresenter: GreeterPresenterInput, ModulePresenter {
    weak var view: (any GreeterViewInput)?
    private let interactor: any GreeterInteractorInput
    private let router: any GreeterRouterInput
    /// The name greeted last: the route's at first, then the form's.
    private var name: String

    init(name: String, interactor: any GreeterInteractorInput, router: any GreeterRouterInput) {
        self.name = name
        self.interactor = interactor
        self.router = router
    }

    func viewDidAppear() {
        show()
    }

    func didSubmit(name: String) {
        self.name = name
        show()
    }

    func didTapAbout() {
        router.openAbout()
    }

    private func show() {
        let greeting = interactor.greeting(for: name)
        view?.display(GreeterViewObject(name: greeting.name, message: greeting.text))
    }
}
