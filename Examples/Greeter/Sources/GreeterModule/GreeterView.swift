import DenKit

/// View: describes the screen and forwards events; holds no logic.
final class GreeterView: ModuleView {
    private let presenter: any GreeterPresenterInput

    init(presenter: any GreeterPresenterInput) {
        self.presenter = presenter
    }

    func handle(_ event: ModuleEvent) {
        switch event {
        case .appear: break
        case .action("greet", let fields): presenter.didSubmit(name: fields["name"] ?? "")
        case .action("about", _): presenter.didTapAbout()
        case .action: break
        }
    }

    var screen: Screen {
        Screen(title: "Greeter", elements: [
            .heading(presenter.viewObject.message),
            .field(Field(id: "name", label: "Name", value: presenter.viewObject.name)),
            .button(Button(id: "greet", label: "Greet", role: .primary)),
            .button(Button(id: "about", label: "About this app")),
        ])
    }
}
