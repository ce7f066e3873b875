import DenRouting
import DenKit
import DenSupport

/// Route guards (docs/ABI.md, "Route guards"): a route registered with `DEN_ROUTE_REQUIRES_LOGIN`
/// is built only for a logged-in user. While nobody is logged in, the host opens the login route
/// instead, as `login?next=<route>`, and never calls the guarded route's builder.
package enum RouteGuard {
    /// The route a logged-out user is sent to. A module that serves it reads `next`, logs the
    /// user in, then navigates to (or replaces itself with) `next`, or `main` when it is missing.
    package static let loginRoute = "login"
    /// Where the logged-in user changes their password: the shell links it when a loaded module
    /// serves it (the Login module does).
    package static let passwordRoute = "login/password"
    /// The query parameter of `loginRoute` that carries the guarded route.
    package static let nextParameter = "next"

    /// What opening a resolved route comes to.
    enum Decision {
        /// Build the route: it is not guarded, or somebody is logged in.
        case open
        /// Build this login route instead of the guarded one; `notice` tells the user why.
        case login(route: String, match: RouteMatch<RouteTarget>, notice: String)
        /// No login screen can be shown; the host screen says why and what to do.
        case refused(Screen)
    }

    /// Decides how to open `route` (resolved as `match`) for `user`. Pure apart from `resolve`,
    /// which must not build anything. Never answers with a guarded route, so a guard cannot
    /// redirect to itself.
    static func decide(_ route: String, _ match: RouteMatch<RouteTarget>, user: String?,
                       resolve: (String) -> Result<RouteMatch<RouteTarget>, RouteResolutionError>) -> Decision {
        guard match.value.requiresLogin, user == nil else { return .open }
        let shown = ModuleText.singleLine(route, limit: 200)
        var notice = "\(shown) needs a logged-in user: log in to open it."
        let login: String
        do {
            login = try RouteURLBuilder.route(for: loginRoute, parameters: [nextParameter: route])
        } catch {
            // Percent-encoding can triple a long route past the route limit: log in without
            // `next` rather than not at all, and say where to go afterwards.
            login = loginRoute
            notice = "\(shown) needs a logged-in user, and it is too long to pass to the login screen as `\(nextParameter)` (the login route would be over \(RouteStringParser.maximumByteCount) bytes); after logging in, open it again."
        }
        switch resolve(login) {
        case .failure:
            return .refused(HostScreens.loginUnavailable(route))
        case .success(let loginMatch) where loginMatch.value.requiresLogin:
            return .refused(HostScreens.loginGuarded(route, loginModule: loginMatch.owner))
        case .success(let loginMatch):
            return .login(route: login, match: loginMatch, notice: notice)
        }
    }
}
