import DenRouting
import DenKit

/// The screens the host draws itself, when no module can.
enum HostScreens {
    /// `unknownRoutes`: modules den did not load whose routes it cannot know (no manifest), so
    /// the route may be theirs: each is named with why it was not loaded.
    static func notFound(_ error: RouteResolutionError, routes: [(pattern: String, moduleID: String, requiresLogin: Bool)],
                         unknownRoutes: [PluginLoadError] = []) -> Screen {
        let plain = routes.filter { !$0.pattern.contains("<") }
        var elements: [Element] = [
            .banner(Banner(.error, "\(error)")),
            .text("Check the route, or run `den routes` to list every route the loaded modules serve."),
        ]
        for failure in unknownRoutes {
            elements.append(.banner(Banner(.warning, "It may belong to a module den did not load, whose routes it cannot know without a manifest: \(failure)")))
        }
        if !plain.isEmpty {
            elements.append(.list(ItemList(title: "Available screens", items: plain.map {
                ItemList.Item(title: $0.pattern, detail: "module \($0.moduleID)\($0.requiresLogin ? ", requires login" : "")",
                              route: $0.pattern)
            })))
        }
        return Screen(title: "Not found", elements: elements)
    }

    /// A route of a module den refused to load (its signature, under the trust policy).
    static func refused(_ route: String, _ error: PluginLoadError) -> Screen {
        Screen(title: "Cannot open \(route)", elements: [
            .banner(Banner(.error, "\(error)")),
            .text("Its module was not loaded; `den plugins` lists it with the same reason."),
        ])
    }

    static func failed(_ route: String, _ error: ModuleCallError) -> Screen {
        Screen(title: "Cannot open \(route)", elements: [
            .banner(Banner(.error, error.description)),
            .text("Go back, or try the route again with other values."),
        ])
    }

    /// A guarded route while nobody is logged in, and no loaded module serves the login route.
    static func loginUnavailable(_ route: String) -> Screen {
        let login = RouteGuard.loginRoute
        return Screen(title: "Cannot open \(route)", elements: [
            .banner(Banner(.error, "\(route) needs a logged-in user, but no loaded module serves the login route `\(login)`, so nobody can log in.")),
            .text("Add the Login module (libLoginModule.so), or another module that serves `\(login)`, to a plugin folder (--plugin-dir, or ~/.local/share/den/modules), then open \(route) again. `den plugins` lists what loaded and why anything failed."),
        ])
    }

    /// A guarded route while nobody is logged in, and the login route is guarded too: sending the
    /// user there would go round in circles.
    static func loginGuarded(_ route: String, loginModule: String) -> Screen {
        let login = RouteGuard.loginRoute
        return Screen(title: "Cannot open \(route)", elements: [
            .banner(Banner(.error, "\(route) needs a logged-in user, but module '\(loginModule)' registered the login route `\(login)` as needing a logged-in user too, so nobody could ever log in.")),
            .text("Module '\(loginModule)' must register `\(login)` without DEN_ROUTE_REQUIRES_LOGIN (DenKit: requiresLogin: false): update that module, or replace it with one that serves `\(login)` to everyone."),
        ])
    }

    /// A guarded screen built for a user who is no longer logged in, when the host could not
    /// open it afresh (the step that changed the user was undone): its data stays hidden.
    static func userChanged(_ route: String) -> Screen {
        Screen(title: "Log in again", elements: [
            .banner(Banner(.warning, "\(route) was opened for the user who was logged in then; the logged-in user has changed, so its screen is hidden.")),
            .text("Open \(route) again, or go back."),
        ])
    }

    /// The previous screen with an error banner on top, after an event the module failed to handle.
    static func withError(_ screen: Screen, _ message: String) -> Screen {
        var screen = screen
        screen.elements.removeAll { if case .banner(let banner) = $0 { banner.kind == .error } else { false } }
        screen.elements.insert(.banner(Banner(.error, message)), at: 0)
        return screen
    }
}
