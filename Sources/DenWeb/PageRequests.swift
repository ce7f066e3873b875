import DenHost
import DenKit
import DenSupport
import DenWebPages
import Hummingbird

/// `GET /<route>` and `GET /_screen/<route>`: shows a route in the visitor's session. The screen
/// already on top is shown as it is (that is where a post-redirect-get lands, and a reload must
/// not build it again); the route just below it is the browser's Back button, so the session
/// goes back; any other route is opened. When the session ends up elsewhere (a guard sent it to
/// login, a builder timed out), the browser is redirected there.
struct PageRequests {
    let runtime: DenRuntime
    let limits: WebLimits
    var devScript = false

    private enum Outcome: Sendable {
        /// Show this view with these messages.
        case shown(SessionView, BrowserSession.Flash)
        /// The session is on another route now: go there (its messages are kept for it).
        case redirect(String)
    }

    /// - Parameter seen: the session revision the browser saw last (`SessionCookie.revisionName`).
    func show(_ requested: String, session: BrowserSession, seen: String?, asJSON: Bool) async -> Response {
        let wanted = requested.isEmpty ? runtime.homeRoute : requested
        // A reload of the screen on top (where every post-redirect-get lands) needs no module
        // call, so it needs no turn on the session's queue and its two thread switches.
        if let current = session.currentIfIdle(seen: seen), RouteLocation.same(current.route, wanted) {
            return render(current, flash: session.takeFlash(), session: session, asJSON: asJSON)
        }
        let depthLimit = limits.maxStackDepth
        // The flash is kept or taken inside the session's queue, so a request of the same
        // browser running alongside can never take another step's messages.
        let conclude: @Sendable (SessionView) -> Outcome = { view in
            if RouteLocation.same(view.route, wanted) || view.route.isEmpty {
                return .shown(view, BrowserSession.Flash(notices: view.notices, errors: view.errors, openURLs: view.openURLs))
            }
            session.keepFlash(view)
            return .redirect(view.route)
        }
        let outcome = await session.perform(limit: limits.maxQueuedRequests, seen: seen, { navigation -> Outcome in
            if let current = navigation.current, RouteLocation.same(current.route, wanted) {
                return .shown(current, session.takeFlash())
            }
            let view: SessionView
            let depth = navigation.current.map { $0.backStack.count + 1 } ?? 0
            if let current = navigation.current, let below = current.backStack.last, RouteLocation.same(below, wanted) {
                view = navigation.back()
            } else {
                view = depth >= depthLimit ? navigation.replace(wanted) : navigation.open(wanted)
            }
            return conclude(view)
        }, stalled: conclude) // the host gave up a module call of the step: the session recovered
        guard let outcome else { return Self.busy() }
        switch outcome {
        case .shown(let view, let flash):
            return render(view, flash: flash, session: session, asJSON: asJSON)
        case .redirect(let route):
            return WebResponses.redirect(toRoute: asJSON ? "_screen/" + route : route)
        }
    }

    private func render(_ view: SessionView, flash: BrowserSession.Flash, session: BrowserSession, asJSON: Bool) -> Response {
        let status = Self.status(of: view)
        if asJSON {
            let json = (try? WireFormat.encode(view.screen)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return WebResponses.json(json, status: status)
        }
        var input = PageInput(route: view.route, screen: view.screen, notices: flash.notices, errors: flash.errorsNotOn(view.screen),
                              openURLs: flash.openURLs, backRoute: view.backStack.last, csrfToken: session.csrfToken,
                              moduleID: view.moduleID, backTitle: view.backTitle,
                              appBar: Self.appBar(session.navigation.shell(), route: view.route))
        input.devScript = devScript
        return WebResponses.html(utf8: PageRenderer.pageUTF8(input), status: status)
    }

    /// The host's shell as the page header draws it, the entry of `route` marked current.
    static func appBar(_ shell: AppShell, route: String) -> AppBar {
        let current = shell.currentEntry(for: route)
        return AppBar(appName: shell.appName, items: shell.entries.map { entry in
            AppBar.Item(title: entry.title, route: entry.route, needsLogin: entry.needsLogin,
                        isCurrent: entry.route == current?.route && entry.moduleID == current?.moduleID)
        }, user: shell.user, loginRoute: shell.loginRoute, passwordRoute: shell.passwordRoute)
    }

    /// A module's screen is 200; no module for the route is 404. When the module could not build
    /// it, a refusal of the request (a bad deep-link value) is the client's error, a 4xx, and
    /// only a failure of the module or the host is a 500.
    static func status(of view: SessionView) -> HTTPResponse.Status {
        guard view.isHostScreen else { return .ok }
        guard view.moduleID != nil else { return .notFound }
        switch view.failure?.refusal {
        case .invalidInput?, .unsupported?: return .badRequest
        case .notFound?: return .notFound
        case .conflict?: return .conflict
        case nil: return .internalServerError
        }
    }

    /// The 404 for a route no module serves (or a malformed one), answered without a session;
    /// nil when a module serves it. The route "" is the home route.
    static func unservable(_ route: String, runtime: DenRuntime, asJSON: Bool) -> Response? {
        guard !route.isEmpty, case .failure(let error) = runtime.registry.resolve(route) else { return nil }
        let message = ModuleText.singleLine(String(describing: error))
        if asJSON { return WebResponses.json("{\"error\":\(WebResponses.jsonString(message))}", status: .notFound) }
        return WebResponses.error(.notFound, title: "Not found", message: message,
                                  hint: "Check the address, or start from the home page.")
    }

    /// Too many requests of this browser wait behind a module call that has not answered. 429,
    /// not 503: it is this one browser's backpressure, and a proxy that takes a 503 for a host
    /// failing (nginx's `max_fails` with `proxy_next_upstream http_503`) would mark every host
    /// down under one browser's burst of tabs.
    static func busy() -> Response {
        var response = WebResponses.error(.tooManyRequests, title: "Still working",
            message: "This browser session is still waiting for a module to answer earlier requests, so this one was not taken.",
            hint: "Wait a little and reload the page. A module that does not answer is given up after den's call time limit (--call-timeout).")
        response.headers[.retryAfter] = "5"
        return response
    }
}

extension HTTPFields.Element.Name {
    static let retryAfter = Self("Retry-After")!
}
