import DenKit

/// The browser front-end's HTML: a whole page for a Screen, only its `<main>` (what den.js
/// swaps in after a live-field change), and error pages. Every string from a module, the host
/// or the request is escaped (`HTMLEscaping`); docs/WEB.md ("Pages") describes the markup the
/// server and den.js rely on.
public enum PageRenderer {
    /// The id of the `<main>` element den.js replaces.
    public static let mainID = "den-main"

    /// A whole HTML5 document for the screen.
    public static func page(_ input: PageInput) -> String {
        document(input).html
    }

    /// The same page as UTF-8 bytes, ready for a response body.
    public static func pageUTF8(_ input: PageInput) -> [UInt8] {
        document(input).utf8
    }

    private static func document(_ input: PageInput) -> HTMLWriter {
        PageShell.document(title: input.screen.title, script: true, devModule: input.devScript ? input.moduleID ?? "" : nil,
                           bar: input.appBar, csrfToken: input.csrfToken, route: input.route, main: { writeMain(input, into: &$0) }, footer: { writeFooter(input, into: &$0) })
    }

    /// Only the `<main id="den-main">` element (what the live-field script swaps in).
    public static func main(_ input: PageInput) -> String {
        var page = HTMLWriter()
        writeMain(input, into: &page)
        return page.html
    }

    /// A whole error page (400/403/404/500/503…): the status, a title, what was wrong, what to do,
    /// and a link home. Its content is a `<main id="den-main">` too, so a live-field request
    /// that gets an error page shows it in place.
    public static func errorPage(status: Int, title: String, message: String, hint: String?) -> String {
        PageShell.document(title: "\(status) \(title)", script: false, main: { page in
            page.element(.main, HTMLAttribute(.id, mainID), .classes("den-error-page")) { page in
                page.element(.p, .classes("den-status"), text: "Error \(status)")
                page.element(.h1, text: title)
                page.element(.p, .classes("den-text"), text: message)
                if let hint { page.element(.p, .classes("den-text den-hint"), text: hint) }
                page.element(.p, .classes("den-link")) { page in
                    page.element(.a, HTMLAttribute(.href, "/"), text: "Go to the start page")
                }
            }
        }, footer: { _ in }).html
    }

    static func writeMain(_ input: PageInput, into page: inout HTMLWriter) {
        page.element(.main, HTMLAttribute(.id, mainID)) { page in
            if let backRoute = input.backRoute { backForm(input, backRoute: backRoute, into: &page) }
            page.element(.h1, text: input.screen.title.isEmpty ? input.route : input.screen.title)
            for error in input.errors { BannerMarkup.write(.error, error, into: &page) }
            for notice in input.notices { BannerMarkup.write(.info, notice, into: &page) }
            if !input.openURLs.isEmpty { OpenURLMarkup.write(input.openURLs, into: &page) }
            // The one form: every field, every button, the token and the route.
            page.element(.form, HTMLAttribute(.method, "post"), HTMLAttribute(.action, FormNames.actionPath),
                         .classes("den-screen")) { page in
                hiddenInputs(input, into: &page)
                var screen = ScreenMarkup()
                screen.write(input.screen.elements, into: &page)
            }
        }
    }

    /// Back is a POST (it pops the session's navigation stack), so it is a small form of its
    /// own; it says where it goes by that screen's title (the route only when it has none), as
    /// the terminal's footer does.
    private static func backForm(_ input: PageInput, backRoute: String, into page: inout HTMLWriter) {
        page.element(.form, HTMLAttribute(.method, "post"), HTMLAttribute(.action, FormNames.backPath),
                     .classes("den-back")) { page in
            hiddenInputs(input, into: &page)
            page.element(.button, HTMLAttribute(.type, "submit"), .classes("den-button den-secondary")) { $0.ownText("← Back") }
            page.ownText(" ")
            page.element(.span, .classes("den-back-to")) { page in
                page.ownText("to ")
                if let title = input.backTitle, !title.isEmpty {
                    page.text(title)
                } else {
                    page.element(.code, text: backRoute)
                }
            }
        }
    }

    private static func hiddenInputs(_ input: PageInput, into page: inout HTMLWriter) {
        page.void(.input, HTMLAttribute(.type, "hidden"), HTMLAttribute(.name, FormNames.csrf), HTMLAttribute(.value, input.csrfToken))
        page.void(.input, HTMLAttribute(.type, "hidden"), HTMLAttribute(.name, FormNames.route), HTMLAttribute(.value, input.route))
    }

    private static func writeFooter(_ input: PageInput, into page: inout HTMLWriter) {
        page.element(.footer, .classes("den-footer")) { page in
            page.element(.p) { page in
                page.ownText("Route ")
                page.element(.code, text: input.route)
                if let moduleID = input.moduleID {
                    page.ownText(" · module ")
                    page.element(.code, text: moduleID)
                }
            }
        }
    }
}
