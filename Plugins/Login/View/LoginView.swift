import DenKit

/// What the presenter pushes into the view: a page (`display`, which replaces everything shown
/// before, an earlier login error included), then, when the last attempt failed, why.
protocol LoginViewInput: ModuleViewInput<LoginViewObject> {
    /// Shows why the last attempt failed, on the page displayed last.
    func displayLoginError(_ error: LoginErrorViewObject)
}

/// Passive: keeps the page and the login error displayed last, draws them as a DenKit `Screen`
/// and forwards events to the presenter.
///
/// Secret fields are always drawn empty, whatever the view object says: a password is never part
/// of a screen, and a front-end that sends the screen's values with the next action sends an
/// empty password after every attempt.
final class LoginView: LoginViewInput, PassiveModuleView {
    let presenter: any LoginPresenterInput
    private(set) var viewObject = LoginViewObject.empty
    private(set) var loginError: LoginErrorViewObject?

    init(presenter: any LoginPresenterInput) {
        self.presenter = presenter
    }

    func display(_ viewObject: LoginViewObject) {
        self.viewObject = viewObject
        loginError = nil
    }

    func displayLoginError(_ error: LoginErrorViewObject) {
        loginError = error
    }

    func handle(_ event: ModuleEvent) {
        switch event {
        case .appear:
            presenter.viewDidAppear()
        case .action(let id, let fields):
            presenter.didTrigger(LoginAction(id: id), form: Self.form(fields))
        }
    }

    /// The page with the login error over it (`PassiveModuleView.screen` would draw the page alone).
    var screen: Screen {
        Self.screen(for: viewObject, error: loginError)
    }

    static func screen(for viewObject: LoginViewObject) -> Screen {
        screen(for: viewObject, error: nil)
    }

    static func form(_ fields: [String: String]) -> LoginFormInput {
        typealias ID = LoginViewObject.FieldID
        func secret(_ id: String) -> Secret? { fields[id].map { Secret($0) } }
        return LoginFormInput(username: fields[ID.username], password: secret(ID.password), repeated: secret(ID.repeatPassword),
                              token: secret(ID.token), current: secret(ID.currentPassword))
    }

    static func screen(for object: LoginViewObject, error: LoginErrorViewObject?) -> Screen {
        var elements: [Element] = object.texts.map { .text($0) }
        elements += object.notices.map { .banner(Banner(kind($0.kind), $0.text)) }
        if let error {
            // A message for a field this page lacks still shows, as part of the banner.
            let ids = Set(object.fields.map(\.id))
            let unplaced = error.fieldErrors.filter { !ids.contains($0.key) }.sorted { $0.key < $1.key }.map(\.value)
            let text = ([error.banner].compactMap { $0 } + unplaced).joined(separator: " ")
            if !text.isEmpty { elements.append(.banner(Banner(kind(error.kind), text))) }
        }
        elements += object.fields.map { field in
            .field(Field(id: field.id, label: field.label, value: field.isSecret ? "" : field.value,
                         kind: field.isSecret ? .password : .text, placeholder: field.placeholder,
                         error: error?.fieldErrors[field.id], autocomplete: field.autocomplete))
        }
        elements += object.actions.map {
            .button(Button(id: $0.id, label: $0.label, role: $0.isPrimary ? .primary : .secondary))
        }
        return Screen(title: object.title, elements: elements)
    }

    private static func kind(_ kind: LoginViewObject.Notice.Kind) -> Banner.Kind {
        switch kind {
        case .info: .info
        case .success: .success
        case .warning: .warning
        case .error: .error
        }
    }
}
