import DenTerminalText
import DenHost
import DenKit

/// The interactive terminal front-end, free of I/O so it can be driven by tests and pipes: it
/// turns typed lines into navigation-session calls and returns the text to print.
package final class TerminalSession {
    package struct Output: Equatable {
        package var text: String
        package var quit: Bool
        /// Set when the next thing to read is a password: the front-end reads it without echo
        /// after showing this prompt, and hands it to `enterSecret(_:)`.
        package var secretPrompt: String?

        package init(text: String, quit: Bool, secretPrompt: String? = nil) {
            self.text = text
            self.quit = quit
            self.secretPrompt = secretPrompt
        }
    }

    let session: NavigationSession
    private var renderer: TextRenderer
    /// The terminal's width, asked before every draw (the window may have been resized).
    private let columns: (() -> Int)?
    var view: SessionView?
    private var rendered = RenderedScreen(text: "", actions: [])
    /// Field values typed since the screen was last drawn by its module.
    private var edits: [String: String] = [:]
    /// The password field whose value the front-end is reading (hidden) for us.
    private var pendingSecret: String?

    /// Runs one navigation step: on this thread, or on the session's lane (`den run`).
    private let step: (@escaping @Sendable (NavigationSession) -> SessionView) -> SessionView

    /// - Parameter columns: the width to draw in (default: the renderer's fixed width).
    package init(session: NavigationSession, renderer: TextRenderer = TextRenderer(), columns: (() -> Int)? = nil) {
        self.session = session
        self.renderer = renderer
        self.columns = columns
        step = { [session] body in body(session) }
    }

    /// A terminal whose steps run on `lane`, so that a call the watchdog gives up (past the
    /// limit, or Ctrl-C) leaves its thread behind, not this one.
    package init(lane: SessionLane, renderer: TextRenderer = TextRenderer(), columns: (() -> Int)? = nil) {
        session = lane.session
        self.renderer = renderer
        self.columns = columns
        step = { body in lane.perform(body) }
    }

    private var style: TerminalStyle { renderer.style }

    /// Opens the first screen.
    package func start(at route: String) -> Output {
        show(step { $0.open(route) })
    }

    package func handle(line: String) -> Output {
        pendingSecret = nil
        switch TerminalCommand(line) {
        case .quit: return Output(text: "Bye.", quit: true)
        case .help: return Output(text: helpText() + "\n\n" + menuText(), quit: false)
        case .menu(let choice):
            guard !choice.isEmpty else { return Output(text: menuText(), quit: false) }
            let items = menuItems()
            let wanted = choice.lowercased()
            let item = Int(choice).flatMap { items.indices.contains($0 - 1) ? items[$0 - 1] : nil }
                ?? items.first { $0.title.lowercased() == wanted }
            guard let item else { return message("There is no menu entry '\(TerminalText.sanitize(choice))'.\n\n" + menuText()) }
            switch item.target {
            case .route(let route): return show(step { $0.open(route) })
            case .logOut: return show(step { $0.logOut() })
            }
        case .logout: return show(step { $0.logOut() })
        case .redraw: return Output(text: draw(), quit: false)
        case .back: return show(step { $0.back() })
        case .go(let route):
            guard !route.isEmpty else {
                var text = "Say which route to open, e.g. `go about`."
                if let button = button(named: "go") { text += " To press the button \(button.label), type \(button.number) or `press go`." }
                return message(text)
            }
            return show(step { $0.open(route) })
        case .set(let field, let value):
            // `set <password>` alone asks for the value hidden; `<password>=` still empties it.
            if value.isEmpty, !line.contains("="), let password = passwordField(named: field) {
                pendingSecret = password.id
                return Output(text: "", quit: false, secretPrompt: "\(TerminalText.sanitize(password.label)) (not shown): ")
            }
            return set(field, value)
        case .choose(let number):
            guard number >= 1, number <= rendered.actions.count else {
                let range = rendered.actions.isEmpty ? "this screen has no numbered actions" : "choose 1–\(rendered.actions.count)"
                return message("There is no action \(number): \(range).")
            }
            return perform(rendered.actions[number - 1])
        case .press(let name):
            if let button = button(named: name) { return perform(rendered.actions[button.number - 1]) }
            let labels = buttons.map { "\($0.number) \(TerminalText.sanitize($0.label))" }.joined(separator: ", ")
            let linkLabels = links.map { "\($0.number) \(TerminalText.sanitize($0.label))" }.joined(separator: ", ")
            let known = [labels.isEmpty ? "This screen has no buttons." : "Buttons: \(labels).",
                         linkLabels.isEmpty ? "" : "Links: \(linkLabels)."].filter { !$0.isEmpty }.joined(separator: " ")
            return message(name.isEmpty ? "Say which button to press. \(known)" : "There is no button '\(TerminalText.sanitize(name))'. \(known)")
        case .named(let name):
            if let button = button(named: name) { return perform(rendered.actions[button.number - 1]) }
            return message("Unknown command '\(TerminalText.sanitize(name))'. Type `help` for the commands.")
        }
    }

    /// The value read (hidden) after an output with a `secretPrompt`; nil when the user gave up
    /// (Ctrl-C, end of input).
    package func enterSecret(_ value: String?) -> Output {
        guard let field = pendingSecret else { return message("No password was asked for.") }
        pendingSecret = nil
        guard let value else { return message("(\(field) left unchanged)") }
        return set(field, value)
    }

    /// Says that keys typed while den waited for a module were not applied (the screen they were
    /// typed for may be gone).
    /// Typed-ahead text is quoted back only when every line of it is plainly a command; anything
    /// else may be a password typed before its prompt, so only its length is told.
    package func ignoredTyping(_ typed: String) -> String {
        if let columns { renderer.width = columns() }
        let lines = typed.split(whereSeparator: \.isNewline).map(String.init)
        let what = lines.allSatisfy(isPlainCommand)
            ? "what you typed while den waited: \"\(TerminalText.sanitize(typed))\""
            : "\(typed.count) character\(typed.count == 1 ? "" : "s") typed while den waited (not shown: it may be a password)"
        return note("(ignored \(what); the screen may have changed, so type it again if you still want it)")
    }

    /// Whether a typed line may be kept in the line editor's history (and shown in a script's
    /// transcript): never a line that may carry a password — a value set into a password field
    /// (`set pin 1234`, `pin=1234`) or into a field this screen does not have (a password typed
    /// after the screen moved on, `set password …` on the next screen).
    package func mayRemember(_ line: String) -> Bool {
        guard case .set(let field, let value) = TerminalCommand(line) else { return true }
        guard !value.isEmpty else { return true }
        let known = view?.screen.fields.first { $0.id.lowercased() == field.lowercased() }
        return known.map { $0.kind != .password } ?? false
    }

    /// A number, a command, or a button or link of this screen: never secret.
    private func isPlainCommand(_ line: String) -> Bool {
        switch TerminalCommand(line) {
        case .choose, .go, .back, .help, .quit, .redraw, .menu, .logout: true
        case .press(let name), .named(let name): button(named: name) != nil
        case .set: mayRemember(line)
        }
    }

    /// A typed line as a script's transcript shows it: a password it carries becomes "(hidden)".
    package func echo(of line: String) -> String {
        guard !mayRemember(line), case .set(let field, _) = TerminalCommand(line) else { return line }
        return "set \(field) (hidden)"
    }

    private struct NumberedButton {
        var number: Int
        var id: String
        var label: String
    }

    private var buttons: [NumberedButton] {
        rendered.actions.enumerated().compactMap { index, action in
            if case .button(let id, let label) = action { NumberedButton(number: index + 1, id: id, label: label) } else { nil }
        }
    }

    /// Links by their label ("New jog"), so a label works whether the module drew a button or a link.
    private var links: [NumberedButton] {
        rendered.actions.enumerated().compactMap { index, action in
            if case .route(let route, let label) = action { NumberedButton(number: index + 1, id: route, label: label) } else { nil }
        }
    }

    /// A button by id or label, else a link by label: a button wins where both match.
    private func button(named name: String) -> NumberedButton? {
        let wanted = name.trimmingWhitespace().lowercased()
        guard !wanted.isEmpty else { return nil }
        return buttons.first { $0.id.lowercased() == wanted || $0.label.lowercased() == wanted }
            ?? links.first { $0.label.lowercased() == wanted }
    }

    private func passwordField(named id: String) -> Field? {
        view?.screen.fields.first { $0.id.lowercased() == id.lowercased() && $0.kind == .password }
    }

    private func perform(_ action: RenderedScreen.Action) -> Output {
        switch action {
        case .button(let id, _):
            let fields = currentFields()
            return show(step { $0.send(action: id, fields: fields) })
        case .route(let route, _):
            return show(step { $0.follow(route) })
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
        if field.changes {
            let (id, fields) = (field.id, currentFields())
            return show(step { $0.send(change: id, fields: fields) })
        }
        return Output(text: draw() + "\n\n" + note("(\(TerminalText.sanitize(field.id)) set; press a button to send it)"), quit: false)
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
        for notice in view.notices { text += "\n\n" + note("(\(TerminalText.sanitize(notice)))") }
        for url in view.openURLs { text += "\n\n" + wrap("Open in your browser: \(TerminalText.sanitize(url))").joined(separator: "\n") }
        return Output(text: text, quit: false)
    }

    func draw() -> String {
        guard let view else { return "" }
        if let columns { renderer.width = columns() }
        rendered = renderer.render(view.screen, values: edits)
        var text = rendered.text
        // A button whose label reads as a command says how to press it.
        for button in buttons where TerminalCommand.isShadowed(button.label) {
            let label = TerminalText.sanitize(button.label)
            text += "\n" + note("(\(label) is a command word: press this button with \(button.number) or `press \(label.lowercased())`)")
        }
        var footer = "— \(TerminalText.sanitize(view.route))"
        if let module = view.moduleID { footer += " · module \(module)" }
        // Back says where it goes by that screen's title (its route only when it has none).
        if view.canGoBack {
            let below = view.backTitle.flatMap { $0.isEmpty ? nil : $0 } ?? view.backStack.last!
            footer += " · back: \(TerminalText.sanitize(below))"
        }
        footer += " · type a number, `press <button>`, `set <field> <value>`, `go <route>`, `menu`, `back`, `help` or `quit`"
        return text + "\n\n" + wrap(footer).map(style.quiet).joined(separator: "\n")
    }

    private struct MenuItem {
        enum Target { case route(String), logOut }
        var title: String
        var target: Target
        var note: String?
    }

    /// The shell's entries as the terminal's menu: the modules' screens, then the account.
    private func menuItems() -> [MenuItem] {
        let shell = session.shell()
        var items = shell.entries.map { MenuItem(title: $0.title, target: .route($0.route), note: $0.needsLogin ? "log in first" : nil) }
        if shell.user != nil {
            if let route = shell.passwordRoute { items.append(MenuItem(title: "Change password", target: .route(route))) }
            items.append(MenuItem(title: "Log out", target: .logOut))
        } else if let route = shell.loginRoute {
            items.append(MenuItem(title: "Log in", target: .route(route)))
        }
        return items
    }

    /// `menu`: the app's name, who is logged in, and the numbered entries.
    private func menuText() -> String {
        if let columns { renderer.width = columns() }
        let shell = session.shell()
        let items = menuItems()
        var lines = wrap(TerminalText.sanitize(shell.appName) + " — menu" + (shell.user.map { " · logged in as \(TerminalText.sanitize($0))" } ?? ""))
        guard !items.isEmpty else { return (lines + wrap("The loaded modules add nothing to the menu.")).joined(separator: "\n") }
        for (index, item) in items.enumerated() {
            let text = "[\(index + 1)] \(TerminalText.sanitize(item.title))" + (item.note.map { " (\($0))" } ?? "")
            lines += TerminalText.wrap(text, width: renderer.width, indent: "      ", firstIndent: "  ")
        }
        lines += wrap("Open one with `menu <number>` or `menu <title>`, e.g. `menu 1`.").map(style.quiet)
        return lines.joined(separator: "\n")
    }

    /// The command list at the terminal's width: a description that does not fit continues
    /// under its own column when there is room, else under a small indent.
    private func helpText() -> String {
        if let columns { renderer.width = columns() }
        let width = renderer.width
        return TerminalCommand.helpText.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            let text = String(line)
            let column = text.hasPrefix("  ") ? (text[text.index(text.startIndex, offsetBy: 2)...].firstRange(of: "  ")
                .map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? 0) : 0
            let descriptionStart = column > 0 ? text[text.index(text.startIndex, offsetBy: column)...].prefix { $0 == " " }.count + column : 0
            let indent = descriptionStart > 0 && descriptionStart <= width / 2 ? descriptionStart : 4
            return TerminalText.wrapKeepingSpaces(text, width: width, indent: String(repeating: " ", count: indent))
        }.joined(separator: "\n")
    }

    private func wrap(_ text: String) -> [String] {
        TerminalText.wrap(text, width: renderer.width)
    }

    private func note(_ text: String) -> String {
        wrap(text).map(style.notice).joined(separator: "\n")
    }

    private func message(_ text: String) -> Output {
        if let columns { renderer.width = columns() }
        return Output(text: wrap(text).joined(separator: "\n"), quit: false)
    }
}
