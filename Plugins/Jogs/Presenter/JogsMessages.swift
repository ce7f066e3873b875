/// The screens shown instead of data, shared by every Jogs presenter.
enum JogsMessages {
    typealias Object = JogsScreenViewObject

    static let allJogs = Object.Link(label: "All jogs", route: JogsRoutes.list)
    static let newJog = Object.Link(label: "New jog", route: JogsRoutes.new)
    static let report = Object.Link(label: "Weekly report", route: JogsRoutes.report)

    /// Nobody is logged in: never data, only the way to the login screen and back to `route`.
    static func logInFirst(returningTo route: String) -> Object.Message {
        Object.Message(title: "Log in first", notices: [],
                       text: "Your jogs are private to your account: log in to see and log them.",
                       links: [Object.Link(label: "Log in", route: JogsRoutes.login(next: route))])
    }

    /// The same screen for an id that never existed, was deleted, or is another user's.
    static func notFound(_ idText: String) -> Object.Message {
        Object.Message(title: "Jog not found", notices: [],
                       text: "There is no jog \(idText) in your log. Pick one from the list of your jogs.",
                       links: [allJogs])
    }

    /// The session or storage failed; `retry` reopens the screen.
    static func unavailable(_ message: String, retry route: String) -> Object.Message {
        Object.Message(title: "Jogs", notices: [.init(kind: .error, text: message)],
                       text: "No jogs can be shown right now.",
                       links: [Object.Link(label: "Try again", route: route)])
    }

    /// Before the first `appear` (the host sends one right after building the screen).
    static let loading = Object.Message(title: "Jogs", notices: [], text: "Loading your jogs…", links: [])

    /// The screen for a problem that replaces the whole screen; nil for `.invalid`, which a
    /// form shows on its fields instead.
    static func screen(for problem: JogsProblem, route: String, idText: String? = nil) -> Object.Message? {
        switch problem {
        case .notLoggedIn: logInFirst(returningTo: route)
        case .notFound(let id): notFound(idText ?? String(id))
        case .unavailable(let message): unavailable(message, retry: route)
        case .invalid: nil
        }
    }

    static func unknownAction(_ id: String) -> Object.Notice {
        .init(kind: .error, text: "This screen has no action '\(id)'; use one of its buttons.")
    }

    /// "3 saved jogs could not be read …", nil when every record was read.
    static func unreadable(_ count: Int) -> Object.Notice? {
        guard count > 0 else { return nil }
        let which = count == 1 ? "1 saved jog could not be read and is" : "\(count) saved jogs could not be read and are"
        return .init(kind: .warning, text: "\(which) not shown; they are kept as they are (den's log names their keys).")
    }
}
