import DenHost
import DenWebPages
import Hummingbird

/// Answers every request of `den serve`: picks the handler by method and path, finds (or makes)
/// the browser session for page and form requests, and puts the security headers on whatever
/// comes back. Handlers never throw: every problem becomes a page that says what was wrong.
struct DenWebResponder: HTTPResponder {
    typealias Context = WebRequestContext

    static var cookieName: String { SessionCookie.name }

    let runtime: DenRuntime
    let configuration: WebConfiguration
    let sessions: BrowserSessionTable

    init(runtime: DenRuntime, configuration: WebConfiguration) {
        self.runtime = runtime
        self.configuration = configuration
        sessions = BrowserSessionTable(runtime: runtime, configuration: configuration)
    }

    func respond(to request: Request, context: WebRequestContext) async throws -> Response {
        let address = ClientAddress.of(request, peer: context.peerAddress, trustProxy: configuration.trustProxy)
        var response: Response
        if let tracer = runtime.tracer {
            response = await traced(request, from: address, by: tracer)
        } else {
            response = await answer(request, from: address)
        }
        SecurityHeaders.apply(to: &response)
        runtime.events.hostEvent(.answered(status: response.status.code))
        return response
    }

    /// The request as a span (docs/OBSERVABILITY.md, "Traces"), under the `traceparent` a proxy
    /// sent; its steps' module calls find it on their thread (`CallTrace`).
    private func traced(_ request: Request, from address: String, by tracer: any CallTracer) async -> Response {
        let span = tracer.beginRequest(RequestSpanName.of(request, registry: runtime.registry),
                                       parent: request.headers[.traceparent].map { .traceparent($0) },
                                       attributes: [("http.request.method", .string(request.method.rawValue)),
                                                    ("url.path", .string(request.uri.path)),
                                                    ("client.address", .string(address))])
        let response = await CallTrace.$span.withValue(span) { await answer(request, from: address) }
        let status = response.status.code
        span.set("http.response.status_code", .int(status))
        span.end(error: status >= 500 ? "\(status)" : nil)
        return response
    }

    private func answer(_ request: Request, from address: String) async -> Response {
        let path = request.uri.path
        if let events = configuration.devEvents, let response = DevRequests.answer(request, events: events) { return response }
        // HEAD for what a monitor or a cache checks (never a page: showing one moves a session).
        if request.method == .head, path == "/_health" || path == PageAssets.stylesheetPath || path == PageAssets.scriptPath {
            var response = await answer(Request(head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: path),
                                                body: RequestBody(buffer: ByteBuffer())), from: address)
            // The headers GET sends, Content-Length included (RFC 9110 §9.3.2); no body. Setting
            // an empty body would set Content-Length: 0.
            let length = response.headers[.contentLength]
            response.body = ResponseBody()
            response.headers[.contentLength] = length
            return response
        }
        switch (request.method, path) {
        case (.get, "/_health"):
            let modules = runtime.registry.plugins.filter(\.isActive).count
            return WebResponses.json("{\"status\":\"ok\",\"modules\":\(modules)}")
        case (.get, PageAssets.stylesheetPath):
            return WebResponses.asset(PageAssets.stylesheet, contentType: "text/css; charset=utf-8")
        case (.get, PageAssets.scriptPath):
            return WebResponses.asset(PageAssets.script, contentType: "text/javascript; charset=utf-8")
        case (.post, FormNames.actionPath), (.post, FormNames.backPath), (.post, FormNames.changePath), (.post, FormNames.logoutPath):
            let kind: FormRequests.Kind = switch path {
            case FormNames.actionPath: .action
            case FormNames.backPath: .back
            case FormNames.logoutPath: .logout
            default: .change
            }
            if let origin = OriginCheck.foreignOrigin(of: request) { return OriginCheck.refusal(origin) }
            // A form can only be for a live session (its token is the session's): without one
            // the answer is 403 at once, and no session is made for it.
            guard let session = sessions.existing(SessionCookie.value(in: request)) else {
                return FormRequests.noSession()
            }
            return await withSession(request, from: address, existing: session) { session in
                await FormRequests(runtime: runtime, limits: configuration.limits).handle(kind, request, session: session)
            }
        case (.get, _):
            let screenPrefix = "/_screen/"
            let isJSON = path.hasPrefix(screenPrefix)
            let route = RouteLocation.route(path: isJSON ? String(path.dropFirst(screenPrefix.count - 1)) : path,
                                            query: request.uri.query)
            // A route no module serves (a typo, /favicon.ico, /robots.txt) is answered without a
            // session: it never lands on a visitor's stack, and a flood of them makes no sessions.
            if let notFound = PageRequests.unservable(route, runtime: runtime, asJSON: isJSON) { return notFound }
            return await withSession(request, from: address) { session in
                await PageRequests(runtime: runtime, limits: configuration.limits, devScript: configuration.devEvents != nil).show(route, session: session, seen: SessionCookie.revision(in: request), asJSON: isJSON)
            }
        default:
            var response = WebResponses.error(.methodNotAllowed, title: "Method not allowed",
                message: "den serve answers GET for pages and POST for its forms (\(FormNames.actionPath), \(FormNames.backPath), \(FormNames.changePath), \(FormNames.logoutPath)); this was \(request.method.rawValue) \(FormBody.shown(path)).",
                hint: "Open the page in a browser and use its buttons.")
            response.headers[.allow] = path.hasPrefix("/_") && path != "/_health" ? "POST" : "GET"
            return response
        }
    }

    /// Runs `body` with the cookie's session, making one (and setting the cookie) when the cookie
    /// is missing, unknown or expired. A login or logout in the step gives the session a new
    /// cookie id (`BrowserSessionTable.finishStep`), which the response sets.
    private func withSession(_ request: Request, from address: String, existing: BrowserSession? = nil,
                             _ body: (BrowserSession) async -> Response) async -> Response {
        let sent = SessionCookie.value(in: request)
        var (session, isNew) = existing.map { ($0, false) } ?? sessions.session(for: sent)
        // One account check for this request, here or in its step (`SessionStore.beginStep`).
        runtime.sessions.beginStep(session.navigation.id)
        // Logged out from elsewhere (a password change or reset in another session, on this host
        // or another: the account's identity changed): its screens hold that user's data, and a
        // reload would show them again, so it starts afresh. One account read, for a login only.
        if !isNew, let user = session.user, runtime.sessions.user(of: session.navigation.id) != user {
            session = sessions.restart(session)
            isNew = true
        }
        // The auth service throttles and audits by this address, and trusts these devices.
        let devices = DeviceCookie.tokens(in: request)
        runtime.sessions.setClient(SessionClient(address: address, deviceTokens: devices), of: session.navigation.id)
        var response = await body(session)
        let secure = configuration.trustProxy
            && request.headers[.xForwardedProto]?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased() == "https"
        if isNew || session.id != sent {
            response.setCookie(Cookie(name: Self.cookieName, value: session.id, path: "/", secure: secure, httpOnly: true, sameSite: .lax))
        }
        // The revision this answer comes from, so this host (or another holding it) answers the
        // next request without reading storage. An unsaved session has none yet.
        if let revision = session.revision, revision != SessionCookie.revision(in: request) {
            response.setCookie(Cookie(name: SessionCookie.revisionName, value: revision, path: "/", secure: secure, httpOnly: true, sameSite: .lax))
        }
        if let issued = runtime.sessions.takeIssuedDevice(of: session.navigation.id) {
            response.setCookie(DeviceCookie.cookie(adding: issued, to: devices, secure: secure))
        }
        return response
    }
}
