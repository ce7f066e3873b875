import DenKit
import Plot

/// The browser front-end's HTML: a whole page for a Screen, only its `<main>` (what den.js
/// swaps in after a live-field change), and error pages. Every string from a module, the host
/// or the request is escaped (`HTMLEscaping`); docs/WEB.md ("Pages") describes the markup the
/// server and den.js rely on.
public enum PageRenderer {
    /// The id of the `<main>` element den.js replaces.
    public static let mainID = "den-main"

    /// A whole HTML5 document for the screen.
    public static func page(_ input: PageInput) -> String {
        PageShell.document(title: input.screen.title, main: mainNode(input), footer: footer(input), script: true,
                           devModule: input.devScript ? input.moduleID ?? "" : nil)
    }

    /// Only the `<main id="den-main">` element (what the live-field script swaps in).
    public static func main(_ input: PageInput) -> String {
        mainNode(input).render()
    }

    /// A whole error page (400/403/404/500/503…): the status, a title, what was wrong, what to do,
    /// and a link home. Its content is a `<main id="den-main">` too, so a live-field request
    /// that gets an error page shows it in place.
    public static func errorPage(status: Int, title: String, message: String, hint: String?) -> String {
        let main: Node<HTML.BodyContext> = .main(
            .escaped("id", mainID),
            .classes("den-error-page"),
            .p(.classes("den-status"), .escapedText("Error \(status)")),
            .h1(.escapedText(title)),
            .p(.classes("den-text"), .escapedText(message)),
            .unwrap(hint) { .p(.classes("den-text", "den-hint"), .escapedText($0)) },
            .p(.classes("den-link"), .a(.escaped("href", "/"), .escapedText("Go to the start page")))
        )
        return PageShell.document(title: "\(status) \(title)", main: main, footer: .empty, script: false)
    }

    static func mainNode(_ input: PageInput) -> Node<HTML.BodyContext> {
        var screen = ScreenMarkup()
        let elements = screen.nodes(for: input.screen.elements)
        return .main(
            .escaped("id", mainID),
            .unwrap(input.backRoute) { backForm(input, backRoute: $0) },
            .h1(.escapedText(input.screen.title.isEmpty ? input.route : input.screen.title)),
            .group(input.errors.map { BannerMarkup.node(.error, $0) }),
            .group(input.notices.map { BannerMarkup.node(.info, $0) }),
            .if(!input.openURLs.isEmpty, OpenURLMarkup.node(input.openURLs)),
            // The one form: every field, every button, the token and the route.
            .form(
                .escaped("method", "post"),
                .escaped("action", FormNames.actionPath),
                .classes("den-screen"),
                hiddenInputs(input),
                .group(elements)
            )
        )
    }

    /// Back is a POST (it pops the session's navigation stack), so it is a small form of its
    /// own; the route it returns to is named beside it, as the terminal's footer does.
    private static func backForm(_ input: PageInput, backRoute: String) -> Node<HTML.BodyContext> {
        .form(
            .escaped("method", "post"),
            .escaped("action", FormNames.backPath),
            .classes("den-back"),
            hiddenInputs(input),
            .button(.escaped("type", "submit"), .classes("den-button", "den-secondary"),
                    .escapedText("← Back")),
            .text(" "),
            .span(.classes("den-back-to"), .escapedText("to "), .code(.escapedText(backRoute)))
        )
    }

    private static func hiddenInputs<Context: HTML.BodyContext>(_ input: PageInput) -> Node<Context> {
        .group(
            hidden(FormNames.csrf, input.csrfToken),
            hidden(FormNames.route, input.route)
        )
    }

    private static func hidden<Context: HTML.BodyContext>(_ name: String, _ value: String) -> Node<Context> {
        .selfClosedElement(named: "input", attributes: [
            Attribute<HTML.InputContext>.escaped("type", "hidden"),
            .escaped("name", name),
            .escaped("value", value),
        ])
    }

    private static func footer(_ input: PageInput) -> Node<HTML.BodyContext> {
        .footer(.classes("den-footer"), .p(
            .escapedText("Route "), .code(.escapedText(input.route)),
            .unwrap(input.moduleID) { .group(.escapedText(" · module "), .code(.escapedText($0))) }
        ))
    }
}
