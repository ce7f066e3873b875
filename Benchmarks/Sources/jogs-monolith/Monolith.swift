import Foundation
import Hummingbird

/// The monolith's routes and their helpers: one value, so every handler captures only Sendable state.
struct Monolith: Sendable {
    let storage: Storage
    let sessions: Sessions

    func routes() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/jogs") { request, _ in
            try await loggedIn(request) { session, user in
                let from = request.uri.queryParameters.get("from") ?? "", to = request.uri.queryParameters.get("to") ?? ""
                let valid = (from.isEmpty || JogRules.isDay(from)) && (to.isEmpty || JogRules.isDay(to))
                let jogs = try await storage.jogs(of: user, from: valid && !from.isEmpty ? from : nil, to: valid && !to.isEmpty ? to : nil)
                return listPage(user: user, csrf: session.csrf, jogs: jogs, from: from, to: to,
                                notice: valid ? nil : "The dates were not applied, so all your jogs are shown; use YYYY-MM-DD.")
            }
        }

        router.post("/jogs/filter") { request, _ in
            try await posted(request, FilterForm.self, csrf: \._csrf) { _, form in
                guard form._action != "clear-filter" else { return Responses.redirect("/jogs") }
                var query: [String] = []
                if let from = form.from, !from.isEmpty { query.append("from=" + (from.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")) }
                if let to = form.to, !to.isEmpty { query.append("to=" + (to.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")) }
                return Responses.redirect(query.isEmpty ? "/jogs" : "/jogs?" + query.joined(separator: "&"))
            }
        }

        router.get("/jogs/new") { request, _ in
            try await loggedIn(request) { session, _ in
                formPage(title: "New jog", heading: "Log a run", action: "/jogs/new", csrf: session.csrf,
                         date: JogRules.today(), distance: "", duration: "")
            }
        }

        router.post("/jogs/new") { request, _ in
            try await posted(request, JogForm.self, csrf: \._csrf) { session, form in
                guard let user = session.user else { return Responses.redirect("/login?next=%2Fjogs%2Fnew") }
                let date = form.date ?? "", distance = form.distance ?? "", duration = form.duration ?? ""
                switch JogRules.validate(date: date, distance: distance, duration: duration) {
                case .success(let input):
                    let id = try await storage.add(input, for: user)
                    return Responses.redirect("/jogs/\(id)")
                case .failure(let errors):
                    return formPage(title: "New jog", heading: "Log a run", action: "/jogs/new", csrf: session.csrf, date: date,
                                    distance: distance, duration: duration, errors: errors,
                                    notice: "The jog was not saved: correct the fields marked below and press Save again.")
                }
            }
        }

        router.get("/jogs/report") { request, _ in
            try await loggedIn(request) { _, user in
                let jogs = try await storage.jogs(of: user, from: nil, to: nil)
                var weeks: [(String, [Jog])] = []
                for jog in jogs {
                    let week = JogRules.weekStart(jog.date)
                    if weeks.last?.0 == week { weeks[weeks.count - 1].1.append(jog) } else { weeks.append((week, [jog])) }
                }
                var page = Page(title: "Weekly report of \(user)")
                if weeks.isEmpty {
                    page.raw("<p>No jogs yet.</p>")
                } else {
                    page.raw("<table><thead><tr><th scope=\"col\">Week of</th><th scope=\"col\">Jogs</th><th scope=\"col\">Distance</th><th scope=\"col\">Time</th></tr></thead><tbody>")
                    for (week, list) in weeks {
                        let metres = list.reduce(0) { $0 + $1.distanceMetres }, seconds = list.reduce(0) { $0 + $1.durationSeconds }
                        page.raw("<tr><td data-label=\"Week of\">\(week)</td><td data-label=\"Jogs\">\(list.count)</td><td data-label=\"Distance\">")
                        page.text("\(JogRules.kilometres(metres)) km")
                        page.raw("</td><td data-label=\"Time\">\(JogRules.duration(seconds: seconds))</td></tr>")
                    }
                    page.raw("</tbody></table>")
                }
                page.link("All jogs", href: "/jogs")
                return page.response()
            }
        }

        router.get("/jogs/{id}") { request, context in
            try await loggedIn(request) { session, user in
                guard let id = context.parameters.get("id", as: Int64.self), let jog = try await storage.jog(id, of: user) else {
                    return Responses.error(.notFound, "Jog not found", "There is no such jog in your log. Pick one from the list of your jogs.")
                }
                return formPage(title: "Jog of \(jog.date)", heading: "\(JogRules.kilometres(jog.distanceMetres)) km in \(JogRules.duration(seconds: jog.durationSeconds))",
                                action: "/jogs/\(id)", csrf: session.csrf, date: jog.date, distance: JogRules.kilometres(jog.distanceMetres),
                                duration: JogRules.duration(seconds: jog.durationSeconds), delete: true)
            }
        }

        router.post("/jogs/{id}") { request, context in
            try await posted(request, JogForm.self, csrf: \._csrf) { session, form in
                guard let user = session.user else { return Responses.redirect("/login") }
                guard let id = context.parameters.get("id", as: Int64.self) else { return Responses.error(.notFound, "Jog not found", "No such jog.") }
                if form._action == "delete" {
                    _ = try await storage.delete(id, of: user)
                    return Responses.redirect("/jogs")
                }
                let date = form.date ?? "", distance = form.distance ?? "", duration = form.duration ?? ""
                switch JogRules.validate(date: date, distance: distance, duration: duration) {
                case .success(let input):
                    guard try await storage.replace(id, with: input, for: user) else {
                        return Responses.error(.notFound, "Jog not found", "There is no such jog in your log.")
                    }
                    return Responses.redirect("/jogs/\(id)")
                case .failure(let errors):
                    return formPage(title: "Edit jog", heading: "Edit the jog", action: "/jogs/\(id)", csrf: session.csrf, date: date,
                                    distance: distance, duration: duration, errors: errors, delete: true)
                }
            }
        }

        for register in [false, true] {
            let path = RouterPath(register ? "/register" : "/login")
            router.get(path) { request, _ in
                let (session, isNew) = sessions.session(for: request)
                var response = accountPage(register: register, csrf: session.csrf, next: safeNext(request.uri.queryParameters.get("next")))
                if isNew { response.setCookie(Sessions.cookie(session.id)) }
                return response
            }
            router.post(path) { request, _ in
                try await posted(request, AccountForm.self, csrf: \._csrf) { session, form in
                    let name = (form.username ?? "").trimmingCharacters(in: .whitespaces).lowercased()
                    let password = form.password ?? "", next = safeNext(form.next)
                    if register {
                        guard (3...32).contains(name.count), name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
                              password.count >= 8, password == form.repeat else {
                            return accountPage(register: true, csrf: session.csrf, next: next, username: name,
                                               error: "Choose a name of 3 to 32 letters or digits and a password of 8 characters or more, typed twice.")
                        }
                        guard try await storage.addAccount(name, try Account.make(password: password)) else {
                            return accountPage(register: true, csrf: session.csrf, next: next, username: name, error: "That name is taken.")
                        }
                    } else {
                        guard let account = try await storage.account(name), try account.verify(password) else {
                            return accountPage(register: false, csrf: session.csrf, next: next, username: name, error: "Wrong username or password.")
                        }
                    }
                    var response = Responses.redirect(next)
                    response.setCookie(Sessions.cookie(sessions.setUser(name, of: session)))
                    return response
                }
            }
        }

        router.post("/logout") { request, _ in
            try await posted(request, CSRFOnly.self, csrf: \._csrf) { session, _ in
                var response = Responses.redirect("/login")
                response.setCookie(Sessions.cookie(sessions.setUser(nil, of: session)))
                return response
            }
        }

        router.get("/assets/app.css") { _, _ in
            var response = Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: Responses.stylesheet)))
            response.headers[.contentType] = "text/css; charset=utf-8"
            response.headers[.cacheControl] = "public, max-age=31536000"
            Responses.secure(&response)
            return response
        }

        router.get("/_health") { _, _ in
            var response = Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"status\":\"ok\"}")))
            response.headers[.contentType] = "application/json"
            Responses.secure(&response)
            return response
        }
        return router
    }

    func readForm<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        let buffer = try await request.body.collect(upTo: FormLimitContext.maxBody)
        return try URLEncodedFormDecoder().decode(T.self, from: String(buffer: buffer))
    }

    /// Runs `body` for a logged-in session; sends anyone else to the login page, coming back after.
    func loggedIn(_ request: Request, _ body: (Sessions.Session, String) async throws -> Response) async throws -> Response {
        let (session, isNew) = sessions.session(for: request)
        var response: Response
        if let user = session.user {
            response = try await body(session, user)
        } else {
            var next = request.uri.path
            if let query = request.uri.query { next += "?" + query }
            response = Responses.redirect("/login?next=" + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "/jogs"))
        }
        if isNew { response.setCookie(Sessions.cookie(session.id)) }
        return response
    }

    /// A form post: an existing session and its CSRF token, or 403 and nothing done.
    func posted<Form: Decodable & Sendable>(_ request: Request, _ type: Form.Type, csrf: KeyPath<Form, String?>,
                                            _ body: (Sessions.Session, Form) async throws -> Response) async throws -> Response {
        guard let session = sessions.existing(for: request) else {
            return Responses.error(.forbidden, "This form has expired", "The form arrived without a live session; reload the page and try again.")
        }
        let form: Form
        do {
            form = try await readForm(Form.self, request)
        } catch {
            return Responses.error(.badRequest, "Bad form", "The form could not be read: \(error).")
        }
        guard Sessions.csrfMatches(form[keyPath: csrf], session.csrf) else {
            return Responses.error(.forbidden, "This form has expired", "The form's security token does not belong to your session; reload the page and try again.")
        }
        return try await body(session, form)
    }

    // MARK: Jogs

    func listPage(user: String, csrf: String, jogs: [Jog], from: String, to: String, notice: String? = nil) -> Response {
        var page = Page(title: "Jogs of \(user)")
        if let notice { page.banner(notice, error: true) }
        page.formStart(action: "/jogs/filter", csrf: csrf)
        page.field("from", label: "From (YYYY-MM-DD)", value: from, placeholder: "2026-01-01", error: nil)
        page.field("to", label: "To (YYYY-MM-DD)", value: to, placeholder: "2026-01-31", error: nil)
        page.raw("<div class=\"app-actions\">")
        page.button("filter", label: "Filter", primary: true)
        page.button("clear-filter", label: "Clear filter", primary: false)
        page.raw("</div></form><section class=\"app-list\"><h3>Jogs, newest first</h3>")
        if jogs.isEmpty {
            page.raw("<p class=\"app-empty\">")
            page.text(from.isEmpty && to.isEmpty ? "No jogs yet: log your first run with New jog." : "No jogs in these dates. Change the dates, or Clear filter to see them all.")
            page.raw("</p>")
        } else {
            page.raw("<ul>")
            for jog in jogs {
                page.raw("<li><a href=\"/jogs/\(jog.id)\"><span class=\"app-item-title\">")
                page.text("\(jog.date) · \(JogRules.kilometres(jog.distanceMetres)) km in \(JogRules.duration(seconds: jog.durationSeconds))")
                page.raw("</span><small class=\"app-item-detail\">")
                page.text("pace \(JogRules.pace(seconds: jog.durationSeconds, metres: jog.distanceMetres))")
                page.raw("</small></a></li>")
            }
            page.raw("</ul><p class=\"app-text\"><em>")
            page.text(JogRules.totals(jogs))
            page.raw("</em></p>")
        }
        page.raw("</section>")
        page.link("New jog", href: "/jogs/new")
        page.link("Weekly report", href: "/jogs/report")
        return page.response()
    }

    func formPage(title: String, heading: String, action: String, csrf: String, date: String, distance: String, duration: String,
                  errors: JogRules.Errors = .init(), notice: String? = nil, delete: Bool = false) -> Response {
        var page = Page(title: title)
        page.raw("<h2>")
        page.text(heading)
        page.raw("</h2>")
        if let notice { page.banner(notice, error: true) }
        page.formStart(action: action, csrf: csrf)
        page.field("date", label: "Date (YYYY-MM-DD)", value: date, placeholder: JogRules.today(), error: errors.date)
        page.field("distance", label: "Distance (km)", value: distance, placeholder: "5.2", error: errors.distance)
        page.field("duration", label: "Duration (h:mm:ss or mm:ss)", value: duration, placeholder: "28:30", error: errors.duration)
        if let metres = JogRules.distance(distance), let seconds = JogRules.duration(duration) {
            page.raw("<p class=\"app-text\"><small>")
            page.text("Pace \(JogRules.pace(seconds: seconds, metres: metres))")
            page.raw("</small></p>")
        }
        page.raw("<div class=\"app-actions\">")
        page.button("save", label: "Save", primary: true)
        if delete { page.button("delete", label: "Delete", primary: false) }
        page.raw("</div></form>")
        page.link("All jogs", href: "/jogs")
        return page.response(status: errors.date == nil && errors.distance == nil && errors.duration == nil ? .ok : .unprocessableContent)
    }

    func accountPage(register: Bool, csrf: String, next: String, username: String = "", error: String? = nil) -> Response {
        var page = Page(title: register ? "Create an account" : "Log in")
        if let error { page.banner(error, error: true) }
        page.formStart(action: register ? "/register" : "/login", csrf: csrf)
        page.raw("<input type=\"hidden\" name=\"next\" value=\"")
        page.text(next)
        page.raw("\">")
        page.field("username", label: "Username", value: username, placeholder: "", error: nil)
        page.field("password", label: "Password", value: "", placeholder: "", error: nil, type: "password")
        if register { page.field("repeat", label: "Repeat the password", value: "", placeholder: "", error: nil, type: "password") }
        page.button(register ? "register" : "log-in", label: register ? "Create account" : "Log in", primary: true)
        page.raw("</form>")
        page.link(register ? "Log in instead" : "Create an account", href: register ? "/login" : "/register")
        return page.response(status: error == nil ? .ok : .unauthorized)
    }

    /// Only a path on this server.
    func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\") else { return "/jogs" }
        return next
    }
}

/// Form bodies are read up to den's limit (64 KiB).
struct FormLimitContext {
    static let maxBody = 64 * 1024
}

struct FilterForm: Decodable, Sendable {
    var _csrf: String?
    var _action: String?
    var from: String?
    var to: String?
}

// MARK: Accounts

struct AccountForm: Decodable, Sendable {
    var _csrf: String?
    var username: String?
    var password: String?
    var `repeat`: String?
    var next: String?
}

struct CSRFOnly: Decodable, Sendable { var _csrf: String? }
