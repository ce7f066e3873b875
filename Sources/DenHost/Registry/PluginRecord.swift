import DenCatalog
import DenKit
import DenSupport
import FoundationEssentials

/// What the host knows about one plugin file: the module it provides, or why it failed.
public struct PluginRecord: Sendable {
    package enum Status: Sendable, Equatable {
        case active
        case failed(PluginLoadError)
    }

    /// The plugin file. Kept as its path: making a `URL` costs a start ≈ 5,000 instructions a
    /// module, and a start with many modules only asks for the path.
    package var file: URL {
        get { URL(fileURLWithPath: filePath, isDirectory: false) }
        set {
            filePath = newValue.filePath
            fileName = newValue.fileName
        }
    }
    /// `file`'s path.
    package private(set) var filePath: String
    /// `file`'s last component (`libAboutModule.so`), kept: `plugins.list` names every file.
    package private(set) var fileName: String
    public var id: String?
    package var version: String?
    package var summary: String?
    package var routes: [String]
    /// The patterns among `routes` that need a logged-in user (`DEN_ROUTE_REQUIRES_LOGIN`).
    package var loginRoutes: [String] = []
    /// The settings the module declared (empty when it declares none, or failed to load).
    package var settings: [SettingDefinition] = []
    /// The route patterns a module refused before it loaded (by the trust policy) would have
    /// served, from its manifest: a visitor who opens one is told why, not "not found".
    package var refusedRoutes: [String] = []
    /// The module's entries in the app's navigation, from its manifest (none without one).
    package var navigation: [NavigationEntry] = []
    package var status: Status
    /// 1 for the version loaded at start; each hot swap of the module adds one.
    package var generation = 1
    /// When this version was loaded.
    package var loadedAt = Date()
    /// Earlier versions of this module whose images stay mapped (never `dlclose`d) after hot swaps.
    public var retainedImages = 0
    /// Roughly what those images cost: their file sizes plus the memory their loads added.
    package var retainedBytes: Int64 = 0
    /// Why the latest hot swap of this module was refused (the version above keeps serving).
    package var swapError: String?
    /// False while a module installed from its manifest waits for the first build of one of
    /// its routes (lazy loading): its code has not run yet.
    package var isLoaded = true
    /// Set when the module runs in a worker process: its pid, restarts and sandbox are read from it.
    package var isolated: (any IsolatedHosting)?

    /// "in-process", or "isolated, pid 4242, 1 restart, sandbox: …" (plugins.list's `hosting`).
    package var hosting: String? {
        guard let isolated else { return isLoaded ? HostingPolicy.Mode.inProcess.rawValue : nil }
        return isolated.hostingLine
    }
    /// What the module's signature says (nil: signatures were not checked, or it failed first).
    package var signature: SignatureState?
    /// What its manifest asks for (docs/PERMISSIONS.md); nil without a manifest.
    package var permissions: ModulePermissions?
    /// Its manifest's `requires`, parsed: module id (or `den`) → the versions it works with
    /// (docs/CATALOG.md, "Requirements"). Empty without a manifest.
    package var requires: [String: VersionRequirement] = [:]

    package init(file: URL, id: String?, version: String?, summary: String?, routes: [String],
         settings: [SettingDefinition] = [], status: Status) {
        self.init(filePath: file.filePath, fileName: file.fileName, id: id, version: version, summary: summary,
                  routes: routes, settings: settings, status: status)
    }

    package init(filePath: String, fileName: String, id: String?, version: String?, summary: String?, routes: [String],
         settings: [SettingDefinition] = [], status: Status) {
        self.filePath = filePath
        self.fileName = fileName
        self.id = id
        self.version = version
        self.summary = summary
        self.routes = routes
        self.settings = settings
        self.status = status
    }

    /// A manifest's `requires`, parsed (none without a manifest).
    package static func requirements(of manifest: ModuleManifest?) -> [String: VersionRequirement] {
        manifest.map(ManifestRequirements.parsed) ?? [:]
    }

    public var isActive: Bool { if case .active = status { true } else { false } }

    public var error: PluginLoadError? {
        if case .failed(let error) = status { error } else { nil }
    }

    /// The form modules see through `plugins.list`.
    package var summaryDocument: PluginSummary { summaryDocument(.all) }

    /// The same with only `fields` (and `file` and `status`): a `plugins.list` request's
    /// `fields`, so a page listing a hundred modules does not have each one's error text and
    /// load time written for nothing.
    package func summaryDocument(_ fields: PluginSummary.Fields) -> PluginSummary {
        var document = PluginSummary(
            id: fields.contains(.id) ? id : nil, version: fields.contains(.version) ? version : nil,
            summary: fields.contains(.summary) ? summary : nil, file: fileName,
            routes: fields.contains(.routes) ? routes : [],
            requiresLogin: fields.contains(.requiresLogin) && !loginRoutes.isEmpty ? loginRoutes : nil,
            status: isActive ? .active : .failed, error: fields.contains(.error) ? error?.description : nil)
        document.addSwapDetails(self, fields)
        if fields.contains(.permissions) { document.permissions = permissions }
        if let signature {
            if fields.contains(.publisher) { document.publisher = signature.publisher }
            if fields.contains(.signature) { document.signature = signature.label }
        }
        return document
    }
}
