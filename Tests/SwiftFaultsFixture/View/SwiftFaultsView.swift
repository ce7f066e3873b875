import DenKit

/// What the presenter pushes into the view.
protocol SwiftFaultsViewInput: ModuleViewInput<SwiftFaultsViewObject> {}

/// Passive: the count, a Count button, one button per fault (its id is the fault's name:
/// `fatal`, `index`, `unwrap`, `loop`, `memory`) and Back.
final class SwiftFaultsView: SwiftFaultsViewInput, PassiveModuleView {
    enum Action {
        static let count = "count"
        static let back = "back"
        /// Saves a count `restore` refuses (negative): a crash then cannot bring it back.
        static let poison = "poison"
        /// Saves a count `restore` crashes on: bringing it back would end the next worker too.
        static let poisonRestore = "poison-restore"
    }

    let presenter: any SwiftFaultsPresenterInput
    private(set) var viewObject = SwiftFaultsViewObject.loading

    init(presenter: any SwiftFaultsPresenterInput) {
        self.presenter = presenter
    }

    func display(_ viewObject: SwiftFaultsViewObject) {
        self.viewObject = viewObject
    }

    func handle(_ event: ModuleEvent) {
        switch event {
        case .appear: presenter.viewDidAppear()
        case .action(Action.count, _): presenter.didTapCount()
        case .action(Action.back, _): presenter.didTapBack()
        case .action(Action.poison, _): presenter.tally = Tally(count: -1)
        case .action(Action.poisonRestore, _): presenter.tally = Tally(count: Tally.crashesRestore)
        case .action(let id, _):
            if let fault = Fault(rawValue: id) { presenter.didTap(fault) }
        }
    }

    static func screen(for viewObject: SwiftFaultsViewObject) -> Screen {
        var elements: [Element] = [.text(viewObject.countLine), .button(Button(id: Action.count, label: "count", role: .primary))]
        elements += viewObject.faults.map { .button(Button(id: $0, label: $0, role: .destructive)) }
        elements.append(.button(Button(id: Action.back, label: "Back")))
        return Screen(title: "Swift faults", elements: elements)
    }
}
