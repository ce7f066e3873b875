import DenKit

/// Everything a page shows besides the Screen itself: what the host and the server add around it.
public struct PageInput: Sendable {
    /// The current route, e.g. "jogs/3" (no leading slash).
    public var route: String
    public var screen: Screen
    /// Host notices, shown as info banners.
    public var notices: [String]
    /// Host errors, shown as error banners.
    public var errors: [String]
    /// External links a module asked to open, already checked (http, https, mailto).
    public var openURLs: [String]
    /// The route Back returns to; nil when there is none (no Back control).
    public var backRoute: String?
    /// Goes into every form as the hidden `_csrf` input.
    public var csrfToken: String
    /// The module that drew the screen, named in the footer.
    public var moduleID: String?
    /// Development (`den serve --watch`, `den dev`): the page loads den-dev.js (`DevScript`).
    public var devScript = false
    /// The title of the screen Back returns to: what the Back control names.
    public var backTitle: String?
    /// The header around the screen: the app's name, navigation, the account.
    public var appBar: AppBar = .plain

    public init(route: String, screen: Screen, notices: [String] = [], errors: [String] = [], openURLs: [String] = [],
                backRoute: String? = nil, csrfToken: String, moduleID: String? = nil, backTitle: String? = nil,
                appBar: AppBar = .plain) {
        self.backTitle = backTitle
        self.appBar = appBar
        self.route = route
        self.screen = screen
        self.notices = notices
        self.errors = errors
        self.openURLs = openURLs
        self.backRoute = backRoute
        self.csrfToken = csrfToken
        self.moduleID = moduleID
    }
}
