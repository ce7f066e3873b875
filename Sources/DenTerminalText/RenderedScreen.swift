import DenKit

/// A screen drawn as text, with the numbers the user can type to act on it.
package struct RenderedScreen: Sendable, Equatable {
    package enum Action: Sendable, Equatable {
        /// A button: send its action id with the form's values.
        case button(id: String, label: String)
        /// A link or a list item with a route: navigate there.
        case route(String, label: String)
    }

    package var text: String
    /// `actions[0]` is number 1 on screen.
    package var actions: [Action]

    package init(text: String, actions: [Action]) {
        self.text = text
        self.actions = actions
    }
}
