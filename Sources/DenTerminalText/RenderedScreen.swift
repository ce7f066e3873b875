import DenKit

/// A screen drawn as text, with the numbers the user can type to act on it.
public struct RenderedScreen: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// A button: send its action id with the form's values.
        case button(id: String, label: String)
        /// A link or a list item with a route: navigate there.
        case route(String, label: String)
    }

    public var text: String
    /// `actions[0]` is number 1 on screen.
    public var actions: [Action]

    package init(text: String, actions: [Action]) {
        self.text = text
        self.actions = actions
    }
}
