import DenKit
import DenLibraryContracts

/// What every page shows around the screen: the app's name, the navigation entries of the
/// loaded modules, and who is logged in. Each front-end draws it its own way (the browser's app
/// bar, the terminal's `menu`); the host only says what is in it.
public struct AppShell: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var title: String
        public var route: String
        public var moduleID: String
        /// The entry's route needs a logged-in user and nobody is logged in: following it asks
        /// for a login first, so a front-end says so beside the title.
        public var needsLogin: Bool
    }

    /// The `name` setting of `den.app` ("Den" unless an administrator set another).
    public var appName: String
    public var entries: [Entry]
    /// The logged-in user of this session; nil when nobody is.
    public var user: String?
    /// Where to log in (`RouteGuard.loginRoute`) while nobody is logged in; nil when somebody
    /// is, or no loaded module serves it.
    public var loginRoute: String?
    /// Where the logged-in user changes their password; nil when nobody is logged in or no
    /// loaded module serves it.
    public var passwordRoute: String?

    /// The route of the entry that `route` belongs to (the entry with the longest route that
    /// is `route` or a parent of it), so a front-end can mark where the user is.
    public func currentEntry(for route: String) -> Entry? {
        let path = route.split(separator: "?", maxSplits: 1).first.map(String.init) ?? route
        return entries.filter { path == $0.route || path.hasPrefix($0.route + "/") }.max { $0.route.count < $1.route.count }
    }
}

/// The host's own app-wide settings, changed like a module's: `den config set den.app name "Jog Club"`.
/// Stored under the settings id `den.app` (a dot, so no module id can take it) in a namespace no
/// module can reach; read when den starts.
package enum AppSettingDefinitions {
    package static let settingsID = "den.app"
    package static let namespace = "@den.app"

    package static let name = SettingDefinition(
        "name", kind: .string, default: "Den",
        help: "The app's name, shown in every page's header and the terminal's menu (read when den starts).")

    package static let metrics = SettingDefinition(
        "metrics", kind: .string, default: "",
        help: "Where den serve serves Prometheus metrics, like 127.0.0.1:9464 (empty: not served); --metrics and DEN_METRICS win over this. docs/OBSERVABILITY.md.")

    package static let all = [name, metrics]

    /// The stored metrics address, or nil when none is set.
    package static func metricsAddress(engine: any StorageEngine) -> String? {
        let settings = ModuleSettings(all) { key in try engine.get(namespace: namespace, key: key) }
        let value = settings.value(metrics.name).value.trimmingWhitespace()
        return value.isEmpty ? nil : value
    }

    /// The stored name, or the default; a stored value its rule refuses is reported in `problems`.
    package static func appName(engine: any StorageEngine) -> (name: String, problems: [String]) {
        let settings = ModuleSettings(all) { key in try engine.get(namespace: namespace, key: key) }
        let value = settings.value(name.name)
        let shown = value.value.trimmingWhitespace()
        return (shown.isEmpty ? name.defaultValue : String(shown.prefix(60)),
                value.problem.map { ["\(settingsID): \($0)"] } ?? [])
    }
}
