/// The modules Den bundles (`Plugins/<Name>`, built as `lib<Name>Module.so` beside `den` and
/// installed in `<prefix>/lib/den/modules`): the one list the end-to-end tests count against.
public enum BundledModules {
    public static let files = ["libAboutModule.so", "libLoginModule.so", "libMainModule.so"]

    /// Their module ids, sorted, as den lists them ("about, login, main").
    public static let ids = ["about", "login", "main"]

    public static var count: Int { files.count }

    /// Whether `name` is a plugin-cache copy of a bundled module (`libAboutModule-<identity>.so`).
    public static func isCopy(_ name: String) -> Bool {
        files.contains { name.hasPrefix($0.dropLast(3) + "-") }
    }
}
