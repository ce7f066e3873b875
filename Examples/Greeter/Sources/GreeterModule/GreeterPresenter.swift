/// Presenter: turns the interactor's greeting into what the view shows; sends "About" to the router.
protocol GreeterPresenterInput: AnyObject {
    var viewObject: GreeterViewObject { get }
    func didSubmit(name: String)
    func didTapAbout()
}

struct GreeterViewObject: Equatable {
    var name: String
    var message: String
}

final class GreeterPresenter: GreeterPresenterInput {
    private let interactor: any GreeterInteractorInput
    private let router: any GreeterRouterInput
    private(set) var viewObject: GreeterViewObject

    init(name: String, interactor: any GreeterInteractorInput, router: any GreeterRouterInput) {
        self.interactor = interactor
        self.router = router
        let greeting = interactor.greeting(for: name)
        viewObject = GreeterViewObject(name: greeting.name, message: greeting.text)
    }

    func didSubmit(name: String) {
        let greeting = interactor.greeting(for: name)
        viewObject = GreeterViewObject(name: greeting.name, message: greeting.text)
    }

    func didTapAbout() {
        router.openAbout()
    }
}
