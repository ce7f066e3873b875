/// The wire contract between a page and the server: the names of the form inputs a page posts
/// and the paths it posts them to. The server decodes exactly these names.
public enum FormNames {
    /// The hidden CSRF token, in every form.
    public static let csrf = "_csrf"
    /// The route the page shows, so a post acts on the screen the user saw.
    public static let route = "_route"
    /// The id of the button that submitted the form.
    public static let action = "_action"
    /// The id of the field whose value changed (live fields).
    public static let field = "_field"

    /// The input name of a Screen field. The prefix keeps a module's field ids apart from the
    /// page's own names, so a field called `_csrf` cannot shadow the token.
    public static func field(_ id: String) -> String {
        fieldPrefix + id
    }

    /// The field id inside an input name, or nil for a name that is not a Screen field's.
    public static func fieldID(fromName name: String) -> String? {
        name.hasPrefix(fieldPrefix) ? String(name.dropFirst(fieldPrefix.count)) : nil
    }

    static let fieldPrefix = "f."

    /// POST: `_csrf`, `_route`, `_action=<button id>`, `f.<id>=value` for every field.
    public static let actionPath = "/_action"
    /// POST (from den.js): `_csrf`, `_route`, `_field=<id>`, `f.<id>=value` for every field;
    /// answered with `PageRenderer.main` HTML.
    public static let changePath = "/_change"
    /// POST: `_csrf`, `_route`.
    public static let backPath = "/_back"
    /// POST: `_csrf`, `_route` (the page to show again afterwards): logs the session's user out.
    public static let logoutPath = "/_logout"
}
