/// One version of one module and what it requires: the unit the resolver, the load order and
/// `why` reason about, whether it sits in a catalog or is installed.
public struct ModuleRelease: Sendable, Hashable, CustomStringConvertible {
    /// The id a requirement names to mean den itself (`"den": ">=1.1 <2"`): checked against the
    /// running den's version, never installed, never a module.
    package static let denID = "den"

    /// The module id (`main`).
    public let id: String
    public let version: SemanticVersion
    /// Module id (or `den`) → the range of its versions this release works with.
    package let requires: [String: VersionRequirement]
    /// The requirements in id order, so every listing and message is the same from run to run;
    /// kept, as the resolver walks them at every step.
    package let sortedRequires: [(id: String, requirement: VersionRequirement)]

    package init(id: String, version: SemanticVersion, requires: [String: VersionRequirement] = [:]) {
        self.id = id
        self.version = version
        self.requires = requires
        sortedRequires = requires.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    public static func == (a: ModuleRelease, b: ModuleRelease) -> Bool {
        a.id == b.id && a.version == b.version && a.requires == b.requires
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(version)
    }

    /// From a manifest's texts; throws the first text that does not parse, naming the module.
    public init(id: String, version: String, requires: [String: String]) throws(ReleaseParseError) {
        let parsedVersion: SemanticVersion
        do { parsedVersion = try SemanticVersion(parsing: version) } catch {
            throw ReleaseParseError(description: "\(id): \(error.description)")
        }
        var parsed: [String: VersionRequirement] = [:]
        for (dependency, range) in requires.sorted(by: { $0.key < $1.key }) {
            do { parsed[dependency] = try VersionRequirement(parsing: range) } catch {
                throw ReleaseParseError(description: "\(id) \(version): its requirement on \(dependency): \(error.description)")
            }
        }
        self.init(id: id, version: parsedVersion, requires: parsed)
    }

    /// `main 1.2.0`
    public var description: String { "\(id) \(version)" }
}

/// A release whose version or ranges do not parse.
public struct ReleaseParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
}

/// Where the resolver finds the versions it may choose: a catalog's index, several sources
/// merged, or a test's table. Any order; the resolver sorts.
public protocol ModuleCatalog: Sendable {
    func releases(of id: String) -> [ModuleRelease]
}

/// Releases held in memory, by id: what a validated index becomes, and what tests build.
public struct CatalogSnapshot: ModuleCatalog {
    private let byID: [String: [ModuleRelease]]

    /// `releases` in any order; the resolver sorts each id's versions.
    public init(_ releases: [ModuleRelease]) {
        byID = Dictionary(grouping: releases, by: \.id)
    }

    public func releases(of id: String) -> [ModuleRelease] { byID[id] ?? [] }

    /// Every module id, sorted.
    package var ids: [String] { byID.keys.sorted() }
}
