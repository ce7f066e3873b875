/// The modules the host has loaded (service `plugins.list`).
public protocol PluginCatalog: Sendable {
    func plugins() throws -> [PluginSummary]
}

/// One plugin file as the host knows it.
public struct PluginSummary: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case active, failed }

    /// The module id, or nil when the plugin failed before describing itself.
    public var id: String?
    public var version: String?
    public var summary: String?
    /// The plugin file's name, e.g. `libAboutModule.so`.
    public var file: String
    public var routes: [String]
    /// The patterns among `routes` that need a logged-in user (ABI revision 1, JSON key
    /// `requires_login`); nil when none do, and from hosts before revision 1.
    public var requiresLogin: [String]?
    public var status: Status
    /// What went wrong and what to do, when `status` is `.failed`.
    public var error: String?
    /// Hot swap (docs/HOT_SWAP.md): 1 for the version loaded at start, one more per swap; nil from older hosts.
    public var generation: Int?
    /// When the serving version was loaded, ISO 8601 (`2026-11-23T01:02:03Z`); nil while a module
    /// installed from its manifest has not been opened yet (lazy loading), and from older hosts.
    public var loadedAt: String?
    /// Earlier versions of the module still mapped after hot swaps, and roughly their memory cost.
    public var retainedImages: Int?
    public var retainedBytes: Int64?
    /// Why the latest hot swap of the module was refused (the listed version keeps serving).
    public var swapError: String?

    public init(id: String?, version: String?, summary: String?, file: String, routes: [String],
                requiresLogin: [String]? = nil, status: Status, error: String? = nil) {
        self.id = id
        self.version = version
        self.summary = summary
        self.file = file
        self.routes = routes
        self.requiresLogin = requiresLogin
        self.status = status
        self.error = error
    }

    private enum CodingKeys: String, CodingKey {
        case id, version, summary, file, routes, requiresLogin = "requires_login", status, error
        case generation, loadedAt = "loaded_at", retainedImages = "retained_images", retainedBytes = "retained_bytes"
        case swapError = "swap_error"
    }
}

public struct PluginListResponse: Codable, Sendable, Equatable {
    public var plugins: [PluginSummary]

    public init(plugins: [PluginSummary]) {
        self.plugins = plugins
    }
}

public struct HostPluginCatalog: PluginCatalog {
    private let host: HostServices

    public init(_ host: HostServices) {
        self.host = host
    }

    public func plugins() throws -> [PluginSummary] {
        try host.call("plugins.list", Empty(), as: PluginListResponse.self).plugins
    }
}
