import DenKit

/// What the view tells the presenter.
protocol SwiftFaultsPresenterInput: AnyObject {
    func viewDidAppear()
    func didTapCount()
    func didTap(_ fault: Fault)
    func didTapBack()
    var tally: Tally { get set }
}

/// Shows the tally; sends counting and faults to the interactor, Back to the router.
final class SwiftFaultsPresenter: SwiftFaultsPresenterInput, ModulePresenter {
    weak var view: (any SwiftFaultsViewInput)?
    private let interactor: any SwiftFaultsInteractorInput
    private let router: any SwiftFaultsRouterInput

    init(interactor: any SwiftFaultsInteractorInput, router: any SwiftFaultsRouterInput) {
        self.interactor = interactor
        self.router = router
    }

    func viewDidAppear() {
        show(interactor.tally)
    }

    func didTapCount() {
        show(interactor.count())
    }

    func didTap(_ fault: Fault) {
        interactor.fail(fault)
        show(interactor.tally)
    }

    func didTapBack() {
        router.back()
    }

    /// The state a crash must not lose, for the snapshot (`SwiftFaultsStateCodec`).
    var tally: Tally {
        get { interactor.tally }
        set {
            interactor.tally = newValue
            show(newValue)
        }
    }

    private func show(_ tally: Tally) {
        view?.display(SwiftFaultsViewObject(countLine: "count \(tally.count)", faults: Fault.allCases.map(\.rawValue)))
    }
}
