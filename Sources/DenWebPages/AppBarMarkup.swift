/// What the page header shows around every screen: the app's name, the navigation entries the
/// loaded modules contribute, and the account (who is logged in, Change password, Log out; or
/// Log in). The server fills it from the host's shell (`AppShell`); pages know no host.
public struct AppBar: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        public var title: String
        public var route: String
        /// Following it asks for a login first (nobody is logged in).
        public var needsLogin: Bool
        /// The page shown belongs to this entry (`aria-current="page"`).
        public var isCurrent: Bool

        public init(title: String, route: String, needsLogin: Bool = false, isCurrent: Bool = false) {
            self.title = title
            self.route = route
            self.needsLogin = needsLogin
            self.isCurrent = isCurrent
        }
    }

    public var appName: String
    public var items: [Item]
    public var user: String?
    public var loginRoute: String?
    public var passwordRoute: String?

    public init(appName: String, items: [Item] = [], user: String? = nil, loginRoute: String? = nil, passwordRoute: String? = nil) {
        self.appName = appName
        self.items = items
        self.user = user
        self.loginRoute = loginRoute
        self.passwordRoute = passwordRoute
    }

    /// A page with no shell to draw (an error page): the name and the way home.
    public static let plain = AppBar(appName: "Den")
}

/// The header's markup. Wide screens show the entries in a row; at phone widths (below 32rem)
/// they fold into a menu opened by the "Menu" toggle: a checkbox and its label, so it works
/// with CSS alone (the page's policy allows no inline script, and den.js is not needed for it).
enum AppBarMarkup {
    static let toggleID = "den-menu-toggle"
    static let navID = "den-nav"

    static func write(_ bar: AppBar, csrfToken: String?, route: String?, into page: inout HTMLWriter) {
        page.element(.header, .classes("den-header")) { page in
            page.element(.div, .classes("den-bar")) { page in
                page.element(.a, .classes("den-home"), HTMLAttribute(.href, "/"), text: bar.appName)
                guard !bar.items.isEmpty || bar.user != nil || bar.loginRoute != nil else { return }
                page.void(.input, [HTMLAttribute(.type, "checkbox"), HTMLAttribute(.id, toggleID), .classes("den-menu-toggle"),
                                   HTMLAttribute(.ariaControls, navID)])
                page.element(.label, HTMLAttribute(.for, toggleID), .classes("den-menu-button"), text: "Menu")
                page.element(.nav, HTMLAttribute(.id, navID), .classes("den-nav"), HTMLAttribute(.ariaLabel, bar.appName)) { page in
                    if !bar.items.isEmpty {
                        page.element(.ul, .classes("den-nav-items")) { page in
                            for item in bar.items { entry(item, into: &page) }
                        }
                    }
                    account(bar, csrfToken: csrfToken, route: route, into: &page)
                }
            }
        }
    }

    private static func entry(_ item: AppBar.Item, into page: inout HTMLWriter) {
        page.element(.li) { page in
            var attributes = [HTMLAttribute(.href, RouteHref.href(for: item.route))]
            if item.isCurrent { attributes.append(HTMLAttribute(.ariaCurrent, "page")) }
            if item.needsLogin { attributes.append(HTMLAttribute(.title, "Log in first")) }
            page.element(.a, attributes) { page in
                page.text(item.title)
                if item.needsLogin {
                    page.element(.span, .classes("den-nav-login"), text: " (log in)")
                }
            }
        }
    }

    private static func account(_ bar: AppBar, csrfToken: String?, route: String?, into page: inout HTMLWriter) {
        if let user = bar.user {
            page.element(.div, .classes("den-account")) { page in
                page.element(.span, .classes("den-user")) { page in
                    page.element(.span, .classes("den-visually-hidden"), text: "Logged in as ")
                    page.text(user)
                }
                if let passwordRoute = bar.passwordRoute {
                    page.element(.a, HTMLAttribute(.href, RouteHref.href(for: passwordRoute)), text: "Change password")
                }
                // Logging out changes state: a POST with the page's token, never a link.
                if let csrfToken {
                    page.element(.form, HTMLAttribute(.method, "post"), HTMLAttribute(.action, FormNames.logoutPath),
                                 .classes("den-logout")) { page in
                        page.void(.input, [HTMLAttribute(.type, "hidden"), HTMLAttribute(.name, FormNames.csrf), HTMLAttribute(.value, csrfToken)])
                        if let route {
                            page.void(.input, [HTMLAttribute(.type, "hidden"), HTMLAttribute(.name, FormNames.route), HTMLAttribute(.value, route)])
                        }
                        page.element(.button, HTMLAttribute(.type, "submit"), .classes("den-button den-secondary"), text: "Log out")
                    }
                }
            }
        } else if let loginRoute = bar.loginRoute {
            page.element(.div, .classes("den-account")) { page in
                page.element(.a, HTMLAttribute(.href, RouteHref.href(for: loginRoute)), text: "Log in")
            }
        }
    }
}
