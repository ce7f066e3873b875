import DenKit

/// A banner, from the Screen or from the host. Errors and warnings are `role="alert"` (read out
/// at once), info and success `role="status"`; the kind is also written in words, so it does not
/// rest on colour alone.
enum BannerMarkup {
    static func write(_ kind: Banner.Kind, _ text: String, into page: inout HTMLWriter) {
        page.element(.div, .classes("den-banner den-banner-\(kind.rawValue)"),
                     HTMLAttribute(.role, kind == .error || kind == .warning ? "alert" : "status")) { page in
            page.element(.strong, .classes("den-banner-kind"), text: word(kind) + ":")
            page.ownText(" ")
            page.element(.span, .classes("den-banner-text"), text: text)
        }
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
