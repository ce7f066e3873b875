import DenSupport
import FoundationEssentials

/// Which URLs a module may ask a front-end to open (`open_url`). Anything else — `javascript:`,
/// `data:`, `file:`, a custom scheme — would let a module run script in the browser front-end or
/// reach local files, so the host refuses it before any front-end sees it.
package enum ExternalURLPolicy {
    package static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    /// nil when `url` may be opened, else why not.
    package static func refusal(for url: String) -> String? {
        if url.unicodeScalars.contains(where: ModuleText.isInvisibleOrControl) || url.contains(" ") {
            return "it contains spaces, control or invisible formatting characters"
        }
        guard let colon = url.firstIndex(of: ":") else { return "it has no scheme (only http, https and mailto URLs may be opened)" }
        let scheme = url[..<colon].lowercased()
        guard allowedSchemes.contains(scheme) else {
            return "scheme '\(scheme)' is not allowed (only http, https and mailto URLs may be opened)"
        }
        if scheme != "mailto" {
            guard let parsed = URLComponents(string: url), let host = parsed.host, !host.isEmpty else {
                return "it names no host"
            }
        }
        return nil
    }
}
