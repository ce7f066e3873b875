import DenKit
import Plot

/// A banner, from the Screen or from the host. Errors and warnings are `role="alert"` (read out
/// at once), info and success `role="status"`; the kind is also written in words, so it does not
/// rest on colour alone.
enum BannerMarkup {
    static func node<Context: HTML.BodyContext>(_ kind: Banner.Kind, _ text: String) -> Node<Context> {
        .div(
            .classes("den-banner", "den-banner-\(kind.rawValue)"),
            .escaped("role", kind == .error || kind == .warning ? "alert" : "status"),
            .strong(.classes("den-banner-kind"), .escapedText(word(kind) + ":")),
            .text(" "),
            .span(.classes("den-banner-text"), .escapedText(text))
        )
    }

    static func word(_ kind: Banner.Kind) -> String {
        switch kind {
        case .info: "Note"
        case .success: "Done"
        case .warning: "Warning"
        case .error: "Error"
        }
    }
}
