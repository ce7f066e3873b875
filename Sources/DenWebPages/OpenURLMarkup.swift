/// External links a module asked to open (the `open_url` effect). A page cannot open them by
/// itself (pop-up blockers, and it should not), so they are offered as links, opened in a new
/// tab without giving the other site a handle on this one (`noopener noreferrer`). The host has
/// checked them already; a URL of another scheme is still shown only as text here.
enum OpenURLMarkup {
    static let allowedSchemes = ["http://", "https://", "mailto:"]

    static func write(_ urls: [String], into page: inout HTMLWriter) {
        page.element(.div, .classes("den-banner den-banner-info den-open-urls"), HTMLAttribute(.role, "status")) { page in
            page.element(.p) { page in
                page.element(.strong, .classes("den-banner-kind"), text: "Link:")
                page.text(urls.count == 1 ? " this screen offers a link to open" : " this screen offers links to open")
            }
            page.element(.ul) { page in
                for url in urls {
                    page.element(.li) { link(url, into: &$0) }
                }
            }
        }
    }

    private static func link(_ url: String, into page: inout HTMLWriter) {
        let lowered = url.lowercased()
        guard allowedSchemes.contains(where: { lowered.hasPrefix($0) }) else {
            page.element(.span, text: url + " (not opened: only http, https and mailto links are)")
            return
        }
        page.element(.a, HTMLAttribute(.href, url), HTMLAttribute(.rel, "noopener noreferrer"), HTMLAttribute(.target, "_blank")) { page in
            page.text(url)
            page.element(.span, .classes("den-visually-hidden"), text: " (opens in a new tab)")
        }
    }
}
