import DenKit

/// What a front-end draws after each step of a session.
public struct SessionView: Sendable, Equatable {
    /// The route of the screen on top of the stack.
    public var route: String
    public var screen: Screen
    /// The module showing the screen; nil for the host's own screens (not found, errors).
    public var moduleID: String?
    /// The routes below the top of the stack, bottom first.
    public var backStack: [String]
    /// External URLs the module asked to open during this step (`open_url` effects).
    public var openURLs: [String]
    /// Host messages about this step, e.g. that there was nothing to go back to.
    public var notices: [String]
    /// What went wrong during this step (a module failed an event, a redirect loop was stopped);
    /// the screen shows the same messages in an error banner.
    public var errors: [String]
    /// True when no module instance backs the screen: the host drew it because no module serves
    /// the route or the module could not build it.
    public var isHostScreen: Bool

    public var canGoBack: Bool { !backStack.isEmpty }
}
