/// The page's two assets, served by `den` itself (no CDN, nothing inline, so the
/// Content-Security-Policy can say `script-src 'self'; style-src 'self'`).
public enum PageAssets {
    /// Served at `stylesheetPath` as `text/css; charset=utf-8`.
    public static let stylesheet: String = PageStylesheet.text
    /// Served at `scriptPath` as `text/javascript; charset=utf-8`.
    public static let script: String = PageScript.text
    public static let stylesheetPath = "/_assets/den.css"
    public static let scriptPath = "/_assets/den.js"
}
