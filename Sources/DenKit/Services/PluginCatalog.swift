/// The modules the host has loaded (service `plugins.list`).
public protocol PluginCatalog: Sendable {
    func plugins() throws -> [PluginSummary]
    /// The same list with only `fields` filled in (and `file` and `status`, always): the rest
    /// are nil, and `routes` is empty unless asked for. A page that shows a few fields of every
    /// module asks for those; the host then writes, and the module reads, a third of the bytes.
    func plugins(fields: [PluginSummary.Field]) throws -> [PluginSummary]
}

extension PluginCatalog {
    /// Every field: a catalog that cannot choose answers them all, which a caller must accept.
    public func plugins(fields: [PluginSummary.Field]) throws -> [PluginSummary] { try plugins() }
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
    /// The route patterns the module registered; empty when a request's `fields` left them out.
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
    /// Where the module runs, one line starting with its mode: "in-process", or "isolated, pid
    /// 4242, 1 restart, sandbox: no_new_privs, seccomp, landlock" (docs/ISOLATION.md); nil from
    /// older hosts and for a failed plugin.
    public var hosting: String?
    /// Who signed the module, as the host's trust list names them (docs/SIGNING.md); nil when
    /// unsigned, signed by a key the host does not know, or from hosts that check no signatures.
    public var publisher: String?
    /// The module's signature state: `signed`, `unsigned`, `unknown-key`, `revoked` or `invalid`;
    /// nil from hosts that check no signatures.
    public var signature: String?
    /// What the module's manifest asks for beyond its own data (ABI revision 5;
    /// docs/PERMISSIONS.md); nil from older hosts and for a module without a manifest.
    public var permissions: ModulePermissions?
    /// Set on the one module that took most of den's module time over the last full minute:
    /// "took 83% of den's module time over the last minute (41 s of 49 s)" (docs/OBSERVABILITY.md).
    public var busy: String?

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
        case swapError = "swap_error", hosting, publisher, signature, permissions, busy
    }

    // By hand for one key: `routes` is left out of an answer that was not asked for it (`fields`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        summary = try container.decodeIfPresent(String.self, forKey: .summary)
        file = try container.decode(String.self, forKey: .file)
        routes = try container.decodeIfPresent([String].self, forKey: .routes) ?? []
        requiresLogin = try container.decodeIfPresent([String].self, forKey: .requiresLogin)
        status = try container.decode(Status.self, forKey: .status)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        generation = try container.decodeIfPresent(Int.self, forKey: .generation)
        loadedAt = try container.decodeIfPresent(String.self, forKey: .loadedAt)
        retainedImages = try container.decodeIfPresent(Int.self, forKey: .retainedImages)
        retainedBytes = try container.decodeIfPresent(Int64.self, forKey: .retainedBytes)
        swapError = try container.decodeIfPresent(String.self, forKey: .swapError)
        hosting = try container.decodeIfPresent(String.self, forKey: .hosting)
        publisher = try container.decodeIfPresent(String.self, forKey: .publisher)
        signature = try container.decodeIfPresent(String.self, forKey: .signature)
        permissions = try container.decodeIfPresent(ModulePermissions.self, forKey: .permissions)
        busy = try container.decodeIfPresent(String.self, forKey: .busy)
    }
}

extension PluginSummary {
    /// A member of an entry that a `plugins.list` request can ask for with `fields` (ABI
    /// revision 3); `file` and `status` are always answered. The raw value is the JSON key.
    /// A host before revision 3 answers every field whatever is asked.
    public enum Field: String, Sendable {
        case id, version, summary, routes, requiresLogin = "requires_login", error, generation
        case loadedAt = "loaded_at", retainedImages = "retained_images", retainedBytes = "retained_bytes"
        case swapError = "swap_error", hosting, publisher, signature, permissions, busy

        /// Every field, in the order of the docs. (Not `CaseIterable`, and `Fields` below is not
        /// an `OptionSet`: each standard protocol a DenKit type conforms to adds its symbols to
        /// every module's load, ≈ 1,500 instructions a symbol.)
        public static let all: [Field] = [
            .id, .version, .summary, .routes, .requiresLogin, .error, .generation, .loadedAt,
            .retainedImages, .retainedBytes, .swapError, .hosting, .publisher, .signature, .permissions, .busy,
        ]
    }

    /// A set of fields, as the host writes an answer.
    package struct Fields: Sendable, Equatable {
        private var bits: Int

        package static let all = Fields(Field.all)

        package init(_ fields: [Field]) {
            bits = 0
            for field in fields { bits |= Self.bit(field) }
        }

        /// The fields named; names this version does not know (a later revision's) are ignored.
        package init(names: [String]) {
            self.init(names.compactMap(Field.init(rawValue:)))
        }

        package func contains(_ field: Field) -> Bool { bits & Self.bit(field) != 0 }

        private static func bit(_ field: Field) -> Int {
            switch field {
            case .id: 1 << 0
            case .version: 1 << 1
            case .summary: 1 << 2
            case .routes: 1 << 3
            case .requiresLogin: 1 << 4
            case .error: 1 << 5
            case .generation: 1 << 6
            case .loadedAt: 1 << 7
            case .retainedImages: 1 << 8
            case .retainedBytes: 1 << 9
            case .swapError: 1 << 10
            case .hosting: 1 << 11
            case .publisher: 1 << 12
            case .signature: 1 << 13
            case .permissions: 1 << 14
            case .busy: 1 << 15
            }
        }
    }
}

extension PluginSummary {
    /// This entry as an answer that asked for `fields` carries it: the other fields nil and
    /// `routes` empty; `file` and `status` stay.
    package func keeping(_ fields: Fields) -> PluginSummary {
        var kept = PluginSummary(id: fields.contains(.id) ? id : nil, version: fields.contains(.version) ? version : nil,
                                 summary: fields.contains(.summary) ? summary : nil, file: file,
                                 routes: fields.contains(.routes) ? routes : [],
                                 requiresLogin: fields.contains(.requiresLogin) ? requiresLogin : nil,
                                 status: status, error: fields.contains(.error) ? error : nil)
        if fields.contains(.generation) { kept.generation = generation }
        if fields.contains(.loadedAt) { kept.loadedAt = loadedAt }
        if fields.contains(.retainedImages) { kept.retainedImages = retainedImages }
        if fields.contains(.retainedBytes) { kept.retainedBytes = retainedBytes }
        if fields.contains(.swapError) { kept.swapError = swapError }
        if fields.contains(.hosting) { kept.hosting = hosting }
        if fields.contains(.publisher) { kept.publisher = publisher }
        if fields.contains(.signature) { kept.signature = signature }
        if fields.contains(.permissions) { kept.permissions = permissions }
        if fields.contains(.busy) { kept.busy = busy }
        return kept
    }
}

/// A `plugins.list` request: `{}` for every field, or `{"fields": [...]}` (revision 3).
public struct PluginListRequest: Codable, Sendable, Equatable {
    public var fields: [String]?

    public init(fields: [PluginSummary.Field]? = nil) {
        self.fields = fields?.map(\.rawValue)
    }

    private enum CodingKeys: String, CodingKey { case fields }

    // By hand: a `fields` that is there must be a list (null is refused, as the host refuses it).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fields = container.contains(.fields) ? try container.decode([String].self, forKey: .fields) : nil
    }
}

public struct PluginListResponse: Codable, Sendable, Equatable {
    public var plugins: [PluginSummary]
    /// The fields the host writes of each entry (a request's `fields`); not a JSON key.
    package var fields: PluginSummary.Fields = .all

    public init(plugins: [PluginSummary]) {
        self.plugins = plugins
    }

    package init(plugins: [PluginSummary], fields: PluginSummary.Fields) {
        self.plugins = plugins
        self.fields = fields
    }

    private enum CodingKeys: String, CodingKey { case plugins }

    // By hand, as the hand-written writer does: only `fields` of each entry (`WireDocumentEquivalenceSpec`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if fields == .all {
            try container.encode(plugins, forKey: .plugins)
        } else {
            try container.encode(plugins.map { SelectedFields(plugin: $0, fields: fields) }, forKey: .plugins)
        }
    }
}

/// An entry written with only some of its fields (and `file` and `status`).
private struct SelectedFields: Encodable {
    let plugin: PluginSummary
    let fields: PluginSummary.Fields

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(plugin.file, forKey: Key("file"))
        try container.encode(plugin.status, forKey: Key("status"))
        func add<Value: Encodable>(_ field: PluginSummary.Field, _ value: Value?) throws {
            if fields.contains(field), let value { try container.encode(value, forKey: Key(field.rawValue)) }
        }
        try add(.id, plugin.id)
        try add(.version, plugin.version)
        try add(.summary, plugin.summary)
        try add(.routes, plugin.routes)
        try add(.requiresLogin, plugin.requiresLogin)
        try add(.error, plugin.error)
        try add(.generation, plugin.generation)
        try add(.loadedAt, plugin.loadedAt)
        try add(.retainedImages, plugin.retainedImages)
        try add(.retainedBytes, plugin.retainedBytes)
        try add(.swapError, plugin.swapError)
        try add(.hosting, plugin.hosting)
        try add(.publisher, plugin.publisher)
        try add(.signature, plugin.signature)
        try add(.permissions, plugin.permissions)
        try add(.busy, plugin.busy)
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

    public func plugins(fields: [PluginSummary.Field]) throws -> [PluginSummary] {
        try host.call("plugins.list", PluginListRequest(fields: fields), as: PluginListResponse.self).plugins
    }
}
