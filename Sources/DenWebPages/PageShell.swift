import Plot

/// The document around a page's `<main>`: head (charset, viewport, title, the stylesheet and
/// the script, both from `/_assets`, nothing inline, nothing external), the header with the way
/// home, and the footer.
enum PageShell {
    static func document(title: String, main: Node<HTML.BodyContext>, footer: Node<HTML.BodyContext>,
                         script: Bool, devModule: String? = nil) -> String {
        HTML(
            .lang(.english),
            .head(
                .meta(.charset(.utf8)),
                .meta(.name("viewport"), .content("width=device-width, initial-scale=1")),
                .meta(.name("color-scheme"), .content("light dark")),
                .element(named: "title", nodes: [.escapedText(title.isEmpty ? "Den" : "\(title) · Den")]),
                .link(.rel(.stylesheet), .href(PageAssets.stylesheetPath)),
                // `defer`: runs after the document is parsed, so it finds #den-main.
                .if(script, .script(.escaped("src", PageAssets.scriptPath), .flag("defer"))),
                // Development only: the hot-swap listener, told the page's module (`DevScript`).
                .unwrap(devModule) { .script(.escaped("src", DevScript.path), .escaped("data-den-module", $0), .flag("defer")) }
            ),
            .body(
                .header(.classes("den-header"), .a(.classes("den-home"), .escaped("href", "/"), .escapedText("Den"))),
                main,
                footer
            )
        ).render()
    }
}
