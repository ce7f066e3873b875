import Plot

/// External links a module asked to open (the `open_url` effect). A page cannot open them by
/// itself (pop-up blockers, and it should not), so they are offered as links, opened in a new
/// tab without giving the other site a handle on this one (`noopener noreferrer`). The host has
/// checked them already; a URL of another scheme is still shown only as text here.
enum OpenURLMarkup {
    static let allowedSchemes = ["http://", "https://", "mailto:"]

    static func node(_ urls: [String]) -> Node<HTML.BodyContext> {
        .div(
            .classes("den-banner", "den-banner-info", "den-open-urls"),
            .escaped("role", "status"),
            .p(.strong(.classes("den-banner-kind"), .escapedText("Link:")),
               .escapedText(urls.count == 1 ? " this screen offers a link to open" : " this screen offers links to open")),
            .ul(.group(urls.map { url in .li(link(url)) }))
        )
    }

    private static func link(_ url: String) -> Node<HTML.BodyContext> {
        let lowered = url.lowercased()
        guard allowedSchemes.contains(where: { lowered.hasPrefix($0) }) else {
            return .span(.escapedText(url + " (not opened: only http, https and mailto links are)"))
        }
        return .a(
            .escaped("href", url),
            .escaped("rel", "noopener noreferrer"),
            .escaped("target", "_blank"),
            .escapedText(url),
            .span(.classes("den-visually-hidden"), .escapedText(" (opens in a new tab)"))
        )
    }
}
