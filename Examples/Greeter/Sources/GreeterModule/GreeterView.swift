import DenKit

/// Display-ready text for the Greeter screen, made by the presenter.
struct GreeterViewObject: Equatable {
    var name: String
    var message: String

    static let loading = GreeterViewObject(name: "", message: "")
}

/// What the presenter pushes into the view: a `GreeterViewObject`, through `display`.
protocol GreeterViewInput: ModuleViewInput<GreeterViewObject> {}

/// View: passive. Keeps the view object displayed last, draws it as a Screen and forwards events
/// to the presenter; holds no logic.
final class GreeterView: GreeterViewInput, PassiveModuleView {
    let presenter: any GreeterPresenterInput
    private(set) var viewObject = GreeterViewObject.loading

    init(presenter: any GreeterPresenterInput) {
        self.presenter = presenter
    }

    func display(_ viewObject: GreeterViewObject) {
        self.viewObject = viewObject
    }

    func handle(_ event: ModuleEvent) {
        switch event {
        case .appear: presenter.viewDidAppear()
        case .action("greet", let fields): presenter.didSubmit(name: fields["name"] ?? "")
        case .action("about", _): presenter.didTapAbout()
        case .action: break
        }
    }

    static func screen(for viewObject: GreeterViewObject) -> Screen {
        Screen(title: "Greeter", elements: [
            .heading(viewObject.message),
            .field(Field(id: "name", label: "Name", value: viewObject.name)),
            .button(Button(id: "greet", label: "Greet", role: .primary)),
            .button(Button(id: "about", label: "About this app")),
        ])
    }
}
