import DenKit

/// What a front-end draws after each step of a session.
public struct SessionView: Sendable, Equatable {
    /// The route of the screen on top of the stack.
    package var route: String
    package var screen: Screen
    /// The module showing the screen; nil for the host's own screens (not found, errors).
    public var moduleID: String?
    /// The routes below the top of the stack, bottom first.
    package var backStack: [String]
    /// External URLs the module asked to open during this step (`open_url` effects).
    public var openURLs: [String]
    /// Host messages about this step, e.g. that there was nothing to go back to.
    package var notices: [String]
    /// What went wrong during this step (a module failed an event, a redirect loop was stopped);
    /// the screen shows the same messages in an error banner.
    public var errors: [String]
    /// True when no module instance backs the screen: the host drew it because no module serves
    /// the route or the module could not build it.
    package var isHostScreen: Bool
    /// Why the module could not build the screen, when that is why the host drew it: a
    /// front-end tells the module's refusal of bad input from its failure by the status.
    package var failure: ModuleCallError? = nil
    /// The title of the screen Back returns to, so a Back control says where it goes in words
    /// (nil with nothing below, or when that screen has no title).
    package var backTitle: String? = nil

    package var canGoBack: Bool { !backStack.isEmpty }
}
