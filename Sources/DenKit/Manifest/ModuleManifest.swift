#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a module file says about itself before any of its code runs: its id, version, summary,
/// routes (with their guards), declared settings and exports. A plugin exports it as the data
/// symbol `den_manifest`, a NUL-terminated UTF-8 JSON document (den_module.h, docs/ABI.md "The
/// manifest", docs/schema/v1/manifest.json), which the host reads from the file the way it reads
/// `den_abi_version`: `den plugins --inspect`, lazy loading and `den modules install` use it, and
/// the host checks at load that the module registered exactly what its manifest says.
///
/// The ABI version and the toolchain are not repeated here: they are the file's own
/// `den_abi_version` and `den_toolchain` symbols, read beside it.
public struct ModuleManifest: Codable, Sendable, Equatable {
    /// The symbol's name.
    public static let symbol = "den_manifest"
    /// The format version this DenKit reads and writes.
    public static let formatVersion = 1
    /// The largest manifest a host reads (bytes, without the NUL).
    public static let maximumBytes = 64 * 1024

    public struct Route: Codable, Sendable, Equatable, Hashable {
        public var pattern: String
        /// The route needs a logged-in user (`DEN_ROUTE_REQUIRES_LOGIN`). Optional in JSON (false).
        public var requiresLogin: Bool

        public init(_ pattern: String, requiresLogin: Bool = false) {
            self.pattern = pattern
            self.requiresLogin = requiresLogin
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            pattern = try container.decode(String.self, forKey: .pattern)
            requiresLogin = try container.decodeIfPresent(Bool.self, forKey: .requiresLogin) ?? false
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(pattern, forKey: .pattern)
            if requiresLogin { try container.encode(true, forKey: .requiresLogin) }
        }

        private enum CodingKeys: String, CodingKey { case pattern, requiresLogin }
    }

    /// A function the module exports to other modules (ABI revision 2, `den call`). When a
    /// manifest has an `exports` list, the host checks at load that the module registered exactly
    /// these names, with the same parameter and result types where a signature in the notation is given.
    public struct Export: Codable, Sendable, Equatable {
        public var name: String
        /// The signature in the notation of docs/ABI.md "Exports", e.g. "(f64 a, f64 b) -> f64": its
        /// parameter and result types are checked at load. Text in another form is documentation.
        public var signature: String?
        /// One line for `den exports` and the generated Swift declaration; documentation, not checked at load.
        public var summary: String?

        public init(name: String, signature: String? = nil, summary: String? = nil) {
            self.name = name
            self.signature = signature
            self.summary = summary
        }
    }

    public var v: Int
    public var id: String
    public var version: String
    public var summary: String
    public var routes: [Route]
    public var settings: [SettingDefinition]
    public var exports: [Export]
    /// Whether the manifest lists its exports (an `exports` key, even an empty one). A manifest
    /// without the key says nothing about exports, and they are not checked.
    public var declaresExports: Bool
    /// The module's entries in the app's navigation (`NavigationEntry`); none when left out,
    /// as in every manifest written before they existed.
    public var navigation: [NavigationEntry]
    /// What the module may touch beyond its own data (ABI revision 5; docs/PERMISSIONS.md);
    /// `.nothing` when left out. Read from the manifest only, never registered: den shows it at
    /// install and enforces it at the service boundary.
    public var permissions: ModulePermissions
    /// Other modules this one needs, by id (or `den` for den itself), each with a version range
    /// (`"main": "^1.2"`, `"den": ">=1.0 <2"`); empty when left out. Read from the manifest only:
    /// `den modules publish` lists it in a catalog, and `den modules install <id>` installs what
    /// it names first (docs/CATALOG.md).
    public var requires: [String: String]

    public init(id: String, version: String, summary: String = "", routes: [Route], settings: [SettingDefinition] = [],
                exports: [Export]? = nil, navigation: [NavigationEntry] = [], permissions: ModulePermissions = .nothing,
                requires: [String: String] = [:]) {
        self.v = ModuleManifest.formatVersion
        self.id = id
        self.version = version
        self.summary = summary
        self.routes = routes
        self.settings = settings
        self.exports = exports ?? []
        declaresExports = exports != nil
        self.navigation = navigation
        self.permissions = permissions
        self.requires = requires
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        v = try container.decode(Int.self, forKey: .v)
        id = try container.decode(String.self, forKey: .id)
        version = try container.decode(String.self, forKey: .version)
        summary = try container.decodeIfPresent(String.self, forKey: .summary) ?? ""
        routes = try container.decode([Route].self, forKey: .routes)
        settings = try container.decodeIfPresent([SettingDefinition].self, forKey: .settings) ?? []
        let exports = try container.decodeIfPresent([Export].self, forKey: .exports)
        self.exports = exports ?? []
        declaresExports = exports != nil
        navigation = try container.decodeIfPresent([NavigationEntry].self, forKey: .navigation) ?? []
        permissions = try container.decodeIfPresent(ModulePermissions.self, forKey: .permissions) ?? .nothing
        requires = try container.decodeIfPresent([String: String].self, forKey: .requires) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(v, forKey: .v)
        try container.encode(id, forKey: .id)
        try container.encode(version, forKey: .version)
        try container.encode(summary, forKey: .summary)
        try container.encode(routes, forKey: .routes)
        try container.encode(settings, forKey: .settings)
        if declaresExports { try container.encode(exports, forKey: .exports) }
        if !navigation.isEmpty { try container.encode(navigation, forKey: .navigation) }
        if !permissions.isEmpty || !permissions.unknownNames.isEmpty { try container.encode(permissions, forKey: .permissions) }
        if !requires.isEmpty { try container.encode(requires, forKey: .requires) }
    }

    private enum CodingKeys: String, CodingKey { case v, id, version, summary, routes, settings, exports, navigation, permissions, requires }

    /// The manifest of a Swift module definition: what its `den_manifest` must say.
    public init(_ definition: ModuleDefinition) {
        self.init(id: definition.id, version: definition.version, summary: definition.summary,
                  routes: definition.routes.map { Route($0.pattern, requiresLogin: $0.requiresLogin) },
                  settings: definition.settings,
                  exports: definition.exports.isEmpty ? nil : definition.exports.map { Export(name: $0.name, signature: $0.signature, summary: $0.summary) },
                  navigation: definition.navigation, permissions: definition.permissions ?? .nothing)
    }

    /// Pretty, key-sorted JSON, as `den plugins --inspect --json` prints it and a module's
    /// `module.json` can hold it.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// How `registered` (what a module registered at load, or a module definition) differs from
    /// this manifest, one phrase per difference; empty when they agree. Route and setting order
    /// does not matter. Exports are compared when this manifest lists them: the same names, and
    /// where this manifest gives a signature, the same parameter and result types (names of
    /// parameters are documentation and may differ).
    public func differences(from registered: ModuleManifest) -> [String] {
        var found: [String] = []
        if id != registered.id { found.append("the manifest says id '\(id)', the module registered '\(registered.id)'") }
        if version != registered.version {
            found.append("the manifest says version \(version), the module registered \(registered.version)")
        }
        if summary != registered.summary {
            found.append("the manifest's summary \"\(summary)\" differs from the registered \"\(registered.summary)\"")
        }
        let declared = Set(routes), actual = Set(registered.routes)
        for route in routes where !actual.contains(route) {
            let sameShape = registered.routes.contains { $0.pattern == route.pattern }
            found.append(sameShape
                ? "route '\(route.pattern)' is \(route.requiresLogin ? "guarded" : "open") in the manifest but \(route.requiresLogin ? "open" : "guarded") when registered"
                : "route '\(route.pattern)' is in the manifest but was not registered")
        }
        for route in registered.routes where !declared.contains(route) && !routes.contains(where: { $0.pattern == route.pattern }) {
            found.append("route '\(route.pattern)' was registered but is not in the manifest")
        }
        let mine = Dictionary(settings.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let theirs = Dictionary(registered.settings.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in mine.keys.sorted() {
            guard let other = theirs[name] else { found.append("setting '\(name)' is in the manifest but was not declared"); continue }
            if other != mine[name] { found.append("setting '\(name)' differs between the manifest and the declaration") }
        }
        for name in theirs.keys.sorted() where mine[name] == nil {
            found.append("setting '\(name)' was declared but is not in the manifest")
        }
        if declaresExports { found += exportDifferences(from: registered.exports) }
        return found
    }
}

extension ModuleManifest {
    /// How the registered exports differ from the listed ones (see `differences(from:)`).
    func exportDifferences(from registered: [Export]) -> [String] {
        var found: [String] = []
        let theirs = Dictionary(registered.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let listed = Set(exports.map(\.name))
        for export in exports {
            guard let other = theirs[export.name] else {
                found.append("export '\(export.name)' is in the manifest but was not registered")
                continue
            }
            // A signature outside the notation (e.g. "double(double, double)", as manifests were
            // first told to write) is documentation, not compared.
            guard let text = export.signature, let mine = try? ExportSignature(parsing: text),
                  let otherText = other.signature, let actual = try? ExportSignature(parsing: otherText) else { continue }
            if mine.parameters.map(\.type) != actual.parameters.map(\.type) || mine.result != actual.result {
                found.append("export '\(export.name)' is \(mine) in the manifest but was registered as \(actual)")
            }
        }
        for export in registered where !listed.contains(export.name) {
            found.append("export '\(export.name)' was registered but is not in the manifest")
        }
        return found
    }
}
