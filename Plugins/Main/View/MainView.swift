import DenKit

/// What the presenter pushes into the view.
protocol MainViewInput: ModuleViewInput<MainViewObject> {}

/// Passive: keeps the `MainViewObject` the presenter displayed last, turns it into a DenKit
/// `Screen` and forwards events.
final class MainView: MainViewInput, PassiveModuleView {
    let presenter: any MainPresenterInput
    /// Until the presenter's first push (it answers the host's first event): an empty converter.
    private(set) var viewObject = MainViewObject.blank

    init(presenter: any MainPresenterInput) {
        self.presenter = presenter
    }

    func display(_ viewObject: MainViewObject) {
        self.viewObject = viewObject
    }

    func handle(_ event: ModuleEvent) {
        switch event {
        case .appear:
            presenter.viewDidAppear()
        case .action(let id, let fields):
            presenter.didTrigger(MainAction(id: id), form: Self.form(fields))
        }
    }

    /// Every field asks for change events, so the result follows each edit.
    func handleChange(_ change: FieldChange) {
        presenter.didChange(form: Self.form(change.fields))
    }

    private static func form(_ fields: [String: String]) -> MainFormInput {
        MainFormInput(from: fields[MainViewObject.FieldID.from], to: fields[MainViewObject.FieldID.to],
                      amount: fields[MainViewObject.FieldID.amount])
    }

    static func screen(for object: MainViewObject) -> Screen {
        var elements: [Element] = [.heading(object.heading)]
        elements += object.notices.map { .banner(Banner(kind($0.kind), $0.text)) }
        elements += [
            .field(Field(id: object.from.id, label: object.from.label, value: object.from.selected,
                         kind: .choice, options: object.from.options, changes: true)),
            .field(Field(id: object.to.id, label: object.to.label, value: object.to.selected,
                         kind: .choice, options: object.to.options, changes: true)),
            .field(Field(id: object.amount.id, label: object.amount.label, value: object.amount.text,
                         kind: .number, placeholder: object.amount.placeholder, error: object.amount.error,
                         changes: true)),
            .text(object.result, style: .emphasis),
            .text(object.rateLine, style: .body),
            .text(object.sourceLine, style: .caption),
        ]
        elements += object.actions.map {
            .button(Button(id: $0.id, label: $0.label, role: $0.isPrimary ? .primary : .secondary))
        }
        return Screen(title: object.title, elements: elements)
    }

    private static func kind(_ kind: MainViewObject.Notice.Kind) -> Banner.Kind {
        switch kind {
        case .info: .info
        case .success: .success
        case .warning: .warning
        case .error: .error
        }
    }
}
