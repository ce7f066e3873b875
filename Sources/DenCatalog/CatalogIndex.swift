import DenKit
import FoundationEssentials

/// A catalog's `index.json`: every module's versions, each with its file's place, hash, size and
/// signer and the manifest den shows before it downloads anything. A catalog is a folder of
/// plain files any web server or USB stick can hold; this is its table of contents. Decoding
/// takes any JSON of this shape; `validate()` decides whether den may act on it.
///
/// Its inits, `json()` and `decode(_:)` are public for the benchmark package, which times
/// decoding an index beside resolving against it.
public struct CatalogIndex: Codable, Sendable, Equatable {
    /// The format this den reads and writes.
    public static let currentFormat = 1

    package var format: Int
    /// Raised by every publish. den refuses an index whose serial is below one it has seen, so an
    /// old index cannot be replayed to force a downgrade.
    package var serial: UInt64
    /// When the index was written, ISO 8601 (`2026-05-01T12:00:00Z`); shown, never trusted for order.
    package var generated: String
    /// Module id → its versions.
    package var modules: [String: [CatalogEntry]]

    public init(format: Int = CatalogIndex.currentFormat, serial: UInt64, generated: String, modules: [String: [CatalogEntry]]) {
        self.format = format
        self.serial = serial
        self.generated = generated
        self.modules = modules
    }
}

/// One published version of a module.
public struct CatalogEntry: Codable, Sendable, Equatable {
    package var version: String
    /// The file's path inside the catalog, relative and forward-slashed (`files/main/main-1.2.0.so`).
    package var file: String
    /// The file's SHA-256, 64 lowercase hex digits.
    package var sha256: String
    /// The file's size in bytes: a download stops there, whatever the server sends.
    package var size: UInt64
    /// The minisign key id that signed the file, 16 uppercase hex digits (docs/SIGNING.md).
    package var publisher: String
    package var manifest: CatalogManifest

    public init(version: String, file: String, sha256: String, size: UInt64, publisher: String, manifest: CatalogManifest) {
        self.version = version
        self.file = file
        self.sha256 = sha256
        self.size = size
        self.publisher = publisher
        self.manifest = manifest
    }
}

/// What the index repeats of a file's `den_manifest`: enough to search, resolve and ask for
/// permissions without downloading. The file's own manifest is checked against it at install.
public struct CatalogManifest: Codable, Sendable, Equatable {
    package var id: String
    package var version: String
    package var summary: String
    /// Module id (or `den`) → range (`"main": "^1.2"`).
    package var requires: [String: String]
    /// DenKit's own type, so the catalog, the manifest and the permission prompt read the same way.
    package var permissions: ModulePermissions

    public init(id: String, version: String, summary: String = "", requires: [String: String] = [:],
                permissions: ModulePermissions = .nothing) {
        self.id = id
        self.version = version
        self.summary = summary
        self.requires = requires
        self.permissions = permissions
    }

    // `summary`, `requires` and `permissions` may be left out, as a manifest leaves them out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        version = try container.decode(String.self, forKey: .version)
        summary = try container.decodeIfPresent(String.self, forKey: .summary) ?? ""
        requires = try container.decodeIfPresent([String: String].self, forKey: .requires) ?? [:]
        permissions = try container.decodeIfPresent(ModulePermissions.self, forKey: .permissions) ?? .nothing
    }

    private enum CodingKeys: String, CodingKey { case id, version, summary, requires, permissions }
}

extension CatalogIndex {
    /// The index as JSON, keys sorted, so that a republished index differs only where it changed.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads `index.json`; shape only (see `validate()`).
    public static func decode(_ data: Data) throws -> CatalogIndex {
        try JSONDecoder().decode(CatalogIndex.self, from: data)
    }
}
