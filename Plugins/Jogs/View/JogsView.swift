import DenKit

/// What a Jogs presenter pushes into the view.
protocol JogsViewInput: ModuleViewInput<JogsScreenViewObject> {}

/// Passive: keeps the `JogsScreenViewObject` the presenter displayed last, turns it into a DenKit
/// `Screen` and forwards events. One view serves every Jogs screen; the presenter behind it
/// differs per route.
final class JogsView: JogsViewInput, PassiveModuleView {
    typealias Object = JogsScreenViewObject

    let presenter: any JogsPresenterInput
    /// Until the presenter's first push (it answers the host's first event).
    private(set) var viewObject = Object.message(JogsMessages.loading)

    init(presenter: any JogsPresenterInput) {
        self.presenter = presenter
    }

    func display(_ viewObject: Object) {
        self.viewObject = viewObject
    }

    func handle(_ event: ModuleEvent) {
        switch event {
        case .appear:
            presenter.viewDidAppear()
        case .action(let id, let fields):
            presenter.didTrigger(JogsAction(id: id), form: JogsFormInput(fields))
        }
    }

    /// The form fields ask for change events so the presenter always knows what is typed: a
    /// hot swap then keeps a half-filled form, and the pace preview follows the typing.
    func handleChange(_ change: FieldChange) {
        presenter.didChange(field: change.field, form: JogsFormInput(change.fields))
    }

    static func screen(for object: Object) -> Screen {
        switch object {
        case .list(let list): screen(for: list)
        case .form(let form): screen(for: form)
        case .confirmation(let confirmation): screen(for: confirmation)
        case .report(let report): screen(for: report)
        case .message(let message): screen(for: message)
        }
    }

    static func screen(for list: Object.List) -> Screen {
        var elements: [Element] = list.notices.map(banner)
        elements += [field(list.from), field(list.to)]
        elements += list.actions.map(button)
        elements.append(.list(ItemList(
            title: "Jogs, newest first",
            items: list.jogs.map { jog in
                ItemList.Item(title: "\(jog.date) · \(jog.distance) in \(jog.duration)",
                              detail: "pace \(jog.pace)", route: jog.route)
            },
            emptyText: list.emptyText)))
        if let paging = list.paging { elements.append(.text(paging, style: .caption)) }
        if let totals = list.totals { elements.append(.text(totals, style: .emphasis)) }
        elements += list.links.map(link)
        return Screen(title: list.title, elements: elements)
    }

    static func screen(for form: Object.Form) -> Screen {
        var elements: [Element] = [.heading(form.heading)]
        elements += form.notices.map(banner)
        elements += form.facts.map { .text($0, style: .body) }
        elements += [field(form.date), field(form.distance), field(form.duration)]
        if let preview = form.preview { elements.append(.text(preview, style: .caption)) }
        elements += form.actions.map(button)
        elements += form.links.map(link)
        return Screen(title: form.title, elements: elements)
    }

    static func screen(for confirmation: Object.Confirmation) -> Screen {
        var elements: [Element] = [.heading(confirmation.question), .text(confirmation.detail, style: .body)]
        elements += confirmation.actions.map(button)
        return Screen(title: confirmation.title, elements: elements)
    }

    static func screen(for report: Object.Report) -> Screen {
        var elements: [Element] = report.notices.map(banner)
        elements.append(.text(report.explanation, style: .caption))
        if report.rows.isEmpty {
            elements.append(.text(report.emptyText, style: .body))
        } else {
            elements.append(.table(Table(columns: report.columns, rows: report.rows)))
        }
        if let paging = report.paging { elements.append(.text(paging, style: .caption)) }
        elements += report.links.map(link)
        return Screen(title: report.title, elements: elements)
    }

    static func screen(for message: Object.Message) -> Screen {
        var elements: [Element] = message.notices.map(banner)
        elements.append(.text(message.text, style: .body))
        elements += message.links.map(link)
        return Screen(title: message.title, elements: elements)
    }

    // MARK: - Elements

    private static func field(_ field: Object.Field) -> Element {
        .field(Field(id: field.id, label: field.label, value: field.text, kind: kind(of: field.id),
                     placeholder: field.placeholder, error: field.error, changes: true))
    }

    /// Days are dates (a browser's date picker), the distance a number (a decimal keypad).
    static func kind(of id: String) -> Field.Kind {
        switch id {
        case Object.FieldID.date, Object.FieldID.from, Object.FieldID.to: .date
        case Object.FieldID.distance: .number
        default: .text
        }
    }

    private static func button(_ action: Object.Action) -> Element {
        let role: Button.Role = switch action.role {
        case .primary: .primary
        case .secondary: .secondary
        case .destructive: .destructive
        }
        return .button(Button(id: action.id, label: action.label, role: role))
    }

    private static func link(_ link: Object.Link) -> Element {
        .link(Link(label: link.label, route: link.route))
    }

    private static func banner(_ notice: Object.Notice) -> Element {
        let kind: Banner.Kind = switch notice.kind {
        case .info: .info
        case .success: .success
        case .warning: .warning
        case .error: .error
        }
        return .banner(Banner(kind, notice.text))
    }
}
