import DenHost
import DenKit
import DenWebPages
import Hummingbird

/// The form posts: `/_action` (a button), `/_back`, `/_change` (a live field) and `/_logout`
/// (the app bar's Log out). Each is
/// checked in this order — a form body within the limits, the session's CSRF token, the route
/// the form was drawn for — before anything reaches a module. Actions and back answer 303 to the
/// session's route afterwards (post-redirect-get); a change answers the new `<main>` for the
/// page's script to put in place.
struct FormRequests {
    enum Kind { case action, back, change, logout }

    let runtime: DenRuntime
    let limits: WebLimits

    /// The session's step: done (its view), the form was for a screen no longer on top, or the
    /// form named a button or field the screen does not have.
    private enum Outcome: Sendable {
        case done(SessionView)
        case stale(SessionView?)
        case refused(String, SessionView)
    }

    func handle(_ kind: Kind, _ request: Request, session: BrowserSession) async -> Response {
        let form: FormBody
        switch await read(request) {
        case .success(let body): form = body
        case .failure(let problem): return problem.response
        }
        guard let token = form[FormNames.csrf], SessionToken.matches(token, expected: session.csrfToken) else {
            return WebResponses.error(.forbidden, title: "This form has expired",
                message: form[FormNames.csrf] == nil
                    ? "The form arrived without its security token, so den did not act on it."
                    : "The form's security token does not belong to your session (it may have expired after a while without use, or the form came from another site), so den did not act on it.",
                hint: "Go back, reload the page and try again.")
        }
        guard let route = form[FormNames.route] else { return Self.badForm("the form has no '\(FormNames.route)' field naming the screen it was drawn for") }
        let fields = form.values(prefixed: FormNames.field(""))
        let step: @Sendable (NavigationSession) -> Outcome
        switch kind {
        case .action:
            guard let button = form[FormNames.action], !button.isEmpty else {
                return Self.badForm("the form names no button (field '\(FormNames.action)')")
            }
            step = { navigation in
                guard let current = navigation.current, RouteLocation.same(current.route, route) else { return .stale(navigation.current) }
                guard current.screen.elements.contains(where: { if case .button(let b) = $0 { b.id == button } else { false } }) else {
                    return .refused("This screen has no button '\(FormBody.shown(button))' any more, so nothing was sent.", current)
                }
                return .done(navigation.send(action: button, fields: Self.merge(fields, into: current.screen)))
            }
        case .back:
            step = { navigation in
                guard let current = navigation.current, RouteLocation.same(current.route, route) else { return .stale(navigation.current) }
                return .done(navigation.back())
            }
        case .logout:
            // From any screen: the app bar is on every page, and the session is the same.
            step = { navigation in .done(navigation.logOut()) }
        case .change:
            guard let field = form[FormNames.field], !field.isEmpty else {
                return Self.badForm("the form names no changed field (field '\(FormNames.field)')")
            }
            step = { navigation in
                guard let current = navigation.current, RouteLocation.same(current.route, route) else { return .stale(navigation.current) }
                guard current.screen.fields.contains(where: { $0.id == field && $0.changes }) else {
                    return .refused("This screen has no live field '\(FormBody.shown(field))', so the change was not sent.", current)
                }
                return .done(navigation.send(change: field, fields: Self.merge(fields, into: current.screen)))
            }
        }
        // What the step said goes to the page the redirect leads to (a change answers it at
        // once); it is kept inside the session's queue, so steps never swap their messages.
        let conclude: @Sendable (SessionView?, BrowserSession.Flash) -> (SessionView, BrowserSession.Flash)? = { view, flash in
            if kind != .change { session.keepFlash(flash) }
            return view.map { ($0, flash) }
        }
        let result = await session.perform(limit: limits.maxQueuedRequests, seen: SessionCookie.revision(in: request), { navigation -> (SessionView, BrowserSession.Flash)? in
            switch step(navigation) {
            case .done(let result):
                return conclude(result, BrowserSession.Flash(notices: result.notices, errors: result.errors, openURLs: result.openURLs))
            case .refused(let message, let current):
                return conclude(current, BrowserSession.Flash(notices: [message]))
            case .stale(let current):
                return conclude(current, BrowserSession.Flash(notices: [
                    "That form was for \(FormBody.shown(route)), which is no longer the screen on top here (another tab or the browser's history moved on), so nothing was sent. This is the screen you are on now."]))
            }
        }, stalled: { view in
            // The host gave up a module call of the step: the view is the session recovered.
            conclude(view, BrowserSession.Flash(notices: view.notices, errors: view.errors, openURLs: view.openURLs))
        })
        guard let result else { return PageRequests.busy() }
        guard let (view, flash) = result else { return WebResponses.redirect(toRoute: "") }
        guard kind == .change else { return WebResponses.redirect(toRoute: view.route) }
        let input = PageInput(route: view.route, screen: view.screen, notices: flash.notices, errors: flash.errorsNotOn(view.screen),
                              openURLs: flash.openURLs, backRoute: view.backStack.last, csrfToken: session.csrfToken,
                              moduleID: view.moduleID, backTitle: view.backTitle)
        return WebResponses.html(PageRenderer.main(input))
    }

    /// Every field on the screen with its current value, overridden by what the form sent: a
    /// module gets every field's value (docs/ABI.md), even one a browser left out; names the
    /// screen does not have are dropped.
    private static func merge(_ posted: [String: String], into screen: Screen) -> [String: String] {
        var fields: [String: String] = [:]
        for field in screen.fields { fields[field.id] = posted[field.id] ?? field.value }
        return fields
    }

    /// The body as a form, or the page saying why it is not one.
    private func read(_ request: Request) async -> Result<FormBody, ResponseProblem> {
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/x-www-form-urlencoded" else {
            return .failure(ResponseProblem(WebResponses.error(.unsupportedMediaType, title: "Not a form",
                message: "den expects an HTML form here (Content-Type application/x-www-form-urlencoded), not \(type.map { "'\(FormBody.shown($0))'" } ?? "a body without a Content-Type").",
                hint: "Use the page's buttons; scripts post forms the same way.")))
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limits.maxBodyBytes {
            return .failure(ResponseProblem(Self.tooLarge(limits)))
        }
        let bytes: ByteBuffer
        do {
            bytes = try await request.body.collect(upTo: limits.maxBodyBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            return .failure(ResponseProblem(Self.tooLarge(limits)))
        } catch where String(describing: Swift.type(of: error)).contains("TooManyBytes") {
            // A chunked body (no Content-Length) that runs past the limit: NIO's own error type.
            return .failure(ResponseProblem(Self.tooLarge(limits)))
        } catch {
            return .failure(ResponseProblem(Self.badForm("its body could not be read (\(error))")))
        }
        do throws(FormProblem) {
            return .success(try FormBody(Array(bytes.readableBytesView), limits: limits))
        } catch {
            return .failure(ResponseProblem(Self.badForm(error.message)))
        }
    }

    private static func tooLarge(_ limits: WebLimits) -> Response {
        WebResponses.error(.contentTooLarge, title: "Form too large",
            message: "The form sent more than \(limits.maxBodyBytes / 1024) KiB, the most den accepts, so nothing was done.",
            hint: "Go back, shorten what you typed and send it again.")
    }

    /// A form posted without a live session (cookies off, or the session expired or was ended).
    static func noSession() -> Response {
        WebResponses.error(.forbidden, title: "This form has expired",
            message: "The form arrived without a live session (cookies may be off, or the session ended after a while without use), so den did not act on it.",
            hint: "Go back, reload the page and try again; den needs its session cookie.")
    }

    static func badForm(_ problem: String) -> Response {
        WebResponses.error(.badRequest, title: "Bad form", message: "den could not use this form: \(problem).",
                           hint: "Go back, reload the page and use its buttons.")
    }
}

/// A response that ends a request early (a `Result` failure needs an `Error`).
struct ResponseProblem: Error {
    let response: Response
    init(_ response: Response) { self.response = response }
}
