/// The document around a page's `<main>`: head (charset, viewport, title, the stylesheet and
/// the script, both from `/_assets`, nothing inline, nothing external), the header with the way
/// home and the app bar (`AppBarMarkup`), and the footer.
enum PageShell {
    static func document(title: String, script: Bool, devModule: String? = nil, bar: AppBar = .plain, csrfToken: String? = nil,
                         route: String? = nil, main: (inout HTMLWriter) -> Void,
                         footer: (inout HTMLWriter) -> Void) -> HTMLWriter {
        let page = HTMLWriter()
        page.doctype()
        page.element(.html, HTMLAttribute(.lang, "en")) { page in
            page.element(.head) { page in
                page.void(.meta, HTMLAttribute(.charset, "UTF-8"))
                page.void(.meta, HTMLAttribute(.name, "viewport"), HTMLAttribute(.content, "width=device-width, initial-scale=1"))
                page.void(.meta, HTMLAttribute(.name, "color-scheme"), HTMLAttribute(.content, "light dark"))
                page.element(.title) { page in
                    if !title.isEmpty {
                        page.text(title)
                        page.ownText(" · ")
                    }
                    page.text(bar.appName)
                }
                page.void(.link, HTMLAttribute(.rel, "stylesheet"), HTMLAttribute(.href, PageAssets.stylesheetPath))
                // `defer`: runs after the document is parsed, so it finds #den-main.
                if script {
                    page.element(.script, HTMLAttribute(.src, PageAssets.scriptPath), .flag(.defer)) { _ in }
                }
                // Development only: the hot-swap listener, told the page's module (`DevScript`).
                if let devModule {
                    page.element(.script, HTMLAttribute(.src, DevScript.path), HTMLAttribute(.dataDenModule, devModule),
                                 .flag(.defer)) { _ in }
                }
            }
            page.element(.body) { page in
                AppBarMarkup.write(bar, csrfToken: csrfToken, route: route, into: &page)
                main(&page)
                footer(&page)
            }
        }
        return page
    }
}
