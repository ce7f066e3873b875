import DenKit

/// What the presenter pushes into the view: an `AboutViewObject`, through `display`.
protocol AboutViewInput: ModuleViewInput<AboutViewObject> {}

/// Passive: keeps the view object displayed last, draws it as a Screen and forwards events to
/// the presenter.
final class AboutView: AboutViewInput, PassiveModuleView {
    enum Action {
        static let close = "close"
        static let website = "website"
    }

    let presenter: any AboutPresenterInput
    private(set) var viewObject = AboutViewObject.loading

    init(presenter: any AboutPresenterInput) {
        self.presenter = presenter
    }

    func display(_ viewObject: AboutViewObject) {
        self.viewObject = viewObject
    }

    func handle(_ event: ModuleEvent) {
        switch event {
        case .appear: presenter.viewDidAppear()
        case .action(Action.close, _): presenter.didTapClose()
        case .action(Action.website, _): presenter.didTapWebsite()
        case .action: break
        }
    }

    static func screen(for viewObject: AboutViewObject) -> Screen {
        var elements: [Element] = [
            .heading(viewObject.name),
            .text(viewObject.versionLine, style: .caption),
            .text(viewObject.description),
        ]
        if let error = viewObject.modulesError {
            elements.append(.banner(Banner(.warning, error)))
        }
        elements.append(.list(ItemList(title: "Installed modules",
                                        items: viewObject.modules.map { .init(title: $0.title, detail: $0.detail) },
                                        emptyText: "No modules are installed.")))
        elements.append(.button(Button(id: Action.website, label: viewObject.websiteTitle, role: .secondary)))
        elements.append(.button(Button(id: Action.close, label: "Close", role: .primary)))
        return Screen(title: "About \(viewObject.name)", elements: elements)
    }
}
