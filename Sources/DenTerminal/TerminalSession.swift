import DenHost
import DenKit

/// The interactive terminal front-end, free of I/O so it can be driven by tests and pipes: it
/// turns typed lines into navigation-session calls and returns the text to print.
public final class TerminalSession {
    public struct Output: Equatable {
        public var text: String
        public var quit: Bool
    }

    private let session: NavigationSession
    private let renderer: TextRenderer
    private var view: SessionView?
    private var rendered = RenderedScreen(text: "", actions: [])
    /// Field values typed since the screen was last drawn by its module.
    private var edits: [String: String] = [:]

    public init(session: NavigationSession, renderer: TextRenderer = TextRenderer()) {
        self.session = session
        self.renderer = renderer
    }

    /// Opens the first screen.
    public func start(at route: String) -> Output {
        show(session.open(route))
    }

    public func handle(line: String) -> Output {
        switch TerminalCommand(line) {
        case .quit: return Output(text: "Bye.", quit: true)
        case .help: return Output(text: TerminalCommand.helpText, quit: false)
        case .redraw: return Output(text: draw(), quit: false)
        case .back: return show(session.back())
        case .go(let route):
            guard !route.isEmpty else { return message("Say which route to open, e.g. `go about`.") }
            return show(session.open(route))
        case .set(let field, let value): return set(field, value)
        case .choose(let number):
            guard number >= 1, number <= rendered.actions.count else {
                let range = rendered.actions.isEmpty ? "this screen has no numbered actions" : "choose 1–\(rendered.actions.count)"
                return message("There is no action \(number): \(range).")
            }
            return perform(rendered.actions[number - 1])
        case .named(let name):
            let wanted = name.lowercased()
            if let action = rendered.actions.first(where: { action in
                if case .button(let id, let label) = action { id.lowercased() == wanted || label.lowercased() == wanted } else { false }
            }) {
                return perform(action)
            }
            return message("Unknown command '\(TerminalText.sanitize(name))'. Type `help` for the commands.")
        }
    }

    private func perform(_ action: RenderedScreen.Action) -> Output {
        switch action {
        case .button(let id, _):
            return show(session.send(action: id, fields: currentFields()))
        case .route(let route, _):
            return show(session.open(route))
        }
    }

    private func set(_ id: String, _ value: String) -> Output {
        let fields = view?.screen.fields ?? []
        guard let field = fields.first(where: { $0.id.lowercased() == id.lowercased() }) else {
            let names = fields.map { TerminalText.sanitize($0.id) }.joined(separator: ", ")
            return message(fields.isEmpty ? "This screen has no fields." : "There is no field '\(TerminalText.sanitize(id))'. Fields: \(names).")
        }
        var value = value
        if field.kind == .choice, !field.options.isEmpty {
            guard let option = field.options.first(where: { $0.lowercased() == value.lowercased() }) else {
                let options = field.options.map(TerminalText.sanitize).joined(separator: " ")
                return message("'\(TerminalText.sanitize(value))' is not a choice for \(TerminalText.sanitize(field.id)). Choose one of: \(options).")
            }
            value = option
        }
        edits[field.id] = value
        // A field that asked for change events (`changes`) sends one now, with every value.
        if field.changes { return show(session.send(change: field.id, fields: currentFields())) }
        return Output(text: draw() + "\n\n(\(TerminalText.sanitize(field.id)) set; press a button to send it)", quit: false)
    }

    /// Every field's value on the screen, with the edits typed since it was drawn.
    private func currentFields() -> [String: String] {
        var fields = Dictionary(uniqueKeysWithValues: (view?.screen.fields ?? []).map { ($0.id, $0.value) })
        fields.merge(edits) { $1 }
        return fields
    }

    private func show(_ view: SessionView) -> Output {
        self.view = view
        edits = [:]
        var text = draw()
        for notice in view.notices { text += "\n\n(\(TerminalText.sanitize(notice)))" }
        for url in view.openURLs { text += "\n\nOpen in your browser: \(TerminalText.sanitize(url))" }
        return Output(text: text, quit: false)
    }

    private func draw() -> String {
        guard let view else { return "" }
        rendered = renderer.render(view.screen, values: edits)
        var footer = "\n\n— \(TerminalText.sanitize(view.route))"
        if let module = view.moduleID { footer += " · module \(module)" }
        footer += view.canGoBack ? " · back: \(TerminalText.sanitize(view.backStack.last!))" : ""
        footer += " · type a number, `set <field> <value>`, `go <route>`, `back`, `help` or `quit`"
        return rendered.text + footer
    }

    private func message(_ text: String) -> Output {
        Output(text: text, quit: false)
    }
}
