import DenCatalog
import DenTrust
import Foundation

/// The catalogs `den modules search` and `info` read (`den modules sources add|list|remove`),
/// kept in `<config>/catalog-sources.json` with what den learnt of each: the key that signed it
/// and the highest index serial read there, which it refuses to go below (docs/CATALOG.md).
struct CatalogSources: Codable {
    struct Source: Codable, Equatable {
        /// An http(s) address without a trailing slash, or a folder's absolute path.
        var location: String
        /// The key id that signed the index when it was first read; nil before that.
        var keyID: String?
        /// The highest index serial read there.
        var serial: UInt64?

        enum CodingKeys: String, CodingKey {
            case location
            case keyID = "key"
            case serial
        }
    }

    var sources: [Source] = []
    /// Module id → the version `den modules pin` holds it at: install and update never move it.
    var pins: [String: String] = [:]

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sources = try container.decodeIfPresent([Source].self, forKey: .sources) ?? []
        pins = try container.decodeIfPresent([String: String].self, forKey: .pins) ?? [:]
    }

    private enum CodingKeys: String, CodingKey { case sources, pins }

    /// The pins as the resolver takes them (a version that does not parse was refused when pinned).
    var pinnedVersions: [String: SemanticVersion] {
        pins.compactMapValues { SemanticVersion($0) }
    }

    static func file(configDirectory: URL) -> URL { configDirectory.appendingPathComponent("catalog-sources.json") }

    static func isRemote(_ location: String) -> Bool {
        location.hasPrefix("http://") || location.hasPrefix("https://")
    }

    /// The place a user named, in the form kept: an http(s) URL without a trailing slash, or the
    /// folder's absolute path; nil with the reason when it is neither.
    static func normalise(_ text: String) -> Result<String, CatalogReader.Failure> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .failure(.init("a source is an http(s) address or a folder; it was empty")) }
        if let scheme = trimmed.split(separator: ":", maxSplits: 1).first, trimmed.contains("://") {
            guard scheme.lowercased() == "http" || scheme.lowercased() == "https",
                  let url = URL(string: trimmed), url.host?.isEmpty == false, url.query == nil, url.fragment == nil else {
                return .failure(.init("'\(trimmed.prefix(200))' is not an http(s) address of a catalog (e.g. https://modules.example.org/catalog), nor a folder"))
            }
            var location = trimmed
            while location.hasSuffix("/") { location.removeLast() }
            return .success(location)
        }
        let folder = URL(fileURLWithPath: trimmed).standardizedFileURL.path
        return .success(folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder)
    }

    static func load(_ file: URL) throws(CatalogReader.Failure) -> CatalogSources {
        guard FileManager.default.fileExists(atPath: file.path) else { return CatalogSources() }
        do { return try JSONDecoder().decode(CatalogSources.self, from: Data(contentsOf: file)) } catch {
            throw .init("\(file.path) is not a list of catalog sources (\(error)); fix or remove it, then add the sources again")
        }
    }

    func save(_ file: URL) throws(CatalogReader.Failure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try TrustStore.write(String(decoding: try encoder.encode(self), as: UTF8.self) + "\n", to: file)
        } catch { throw .init("cannot write \(file.path): \(error); make the folder writable, or set DEN_CONFIG_DIR") }
    }

    /// Records what a read learnt: the key, and the serial (never lowered).
    mutating func remember(_ read: CatalogReader.Read, of location: String) {
        guard let index = sources.firstIndex(where: { $0.location == location }) else { return }
        sources[index].keyID = read.keyID
        sources[index].serial = max(sources[index].serial ?? 0, read.index.serial)
    }
}
