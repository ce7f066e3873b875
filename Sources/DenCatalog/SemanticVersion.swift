import DenModuleFiles
import FoundationEssentials

/// A module's version with SemVer 2.0.0 precedence (semver.org §11).
///
/// Written here rather than taken from mxcl/Version 2.2.1, which was checked and does not fit:
/// it imports Foundation whole (Bundle, ProcessInfo), which host targets keep out; it refuses
/// versions SemVer allows (`1.0.0+21AF26D3----117B344092BD`, a '-' in build metadata); it accepts
/// ones den refuses (`1.0.0-é`; `1.2.3-` read as 1.2.3; empty identifiers dropped); and it orders
/// numeric identifiers beyond `Int` as text (rc.99999999999999999999 after rc.100000000000000000000).
///
/// The text accepted is exactly `ModuleIdentity.versionRule` (den_module.h): parsing asks
/// `ModuleIdentity.isValidVersion` first, so a version den loads is always one the catalog can
/// order. That rule is SemVer's grammar with two leniencies den has always allowed — leading
/// zeros (`01.2.3`) and empty prerelease identifiers (`1.0.0-a..b`) — which order here by
/// numeric value and as the empty text. One narrowing: MAJOR, MINOR and PATCH must fit `UInt64`
/// (ranges add one to them); a larger number is refused with its reason.
///
/// Equality is precedence: build metadata and leading zeros do not count, so `1.0.0+a == 1.0.0+b`
/// (a catalog refuses the pair as duplicates). `description` is the text as written.
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let major: UInt64
    package let minor: UInt64
    package let patch: UInt64
    /// The dot-separated identifiers after '-'; empty for a release.
    package let prerelease: [String]
    /// The dot-separated identifiers after '+'; never part of precedence.
    package let build: [String]
    /// The text parsed, kept so messages quote the module's own spelling.
    public let description: String

    /// The prerelease identifiers as precedence compares them (computed once, compared often).
    private let prereleaseKeys: [Identifier]

    package init(major: UInt64, minor: UInt64, patch: UInt64, prerelease: [String] = [], build: [String] = []) {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.prerelease = prerelease
        self.build = build
        var text = "\(major).\(minor).\(patch)"
        if !prerelease.isEmpty { text += "-" + prerelease.joined(separator: ".") }
        if !build.isEmpty { text += "+" + build.joined(separator: ".") }
        description = text
        prereleaseKeys = prerelease.map(Identifier.init)
    }

    /// Parses `text`, or throws what is wrong with it in words a module author can act on.
    package init(parsing text: String) throws(VersionParseError) {
        guard ModuleIdentity.isValidVersion(text) else { throw VersionParseError(text: text, reason: nil) }
        // The rule has been checked, so the shape is known: core, then -PRERELEASE, then +BUILD.
        let (beforeBuild, buildText) = Self.split(Substring(text), at: "+")
        let (core, prereleaseText) = Self.split(beforeBuild, at: "-")
        let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
        var parsed: [UInt64] = []
        for number in numbers {
            guard let value = UInt64(number) else {
                throw VersionParseError(text: text, reason: "\(number) is larger than \(UInt64.max), the largest number a version may hold")
            }
            parsed.append(value)
        }
        major = parsed[0]
        minor = parsed[1]
        patch = parsed[2]
        prerelease = prereleaseText.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) } ?? []
        build = buildText.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) } ?? []
        description = text
        prereleaseKeys = prerelease.map(Identifier.init)
    }

    /// The version, or nil when `text` is not one.
    public init?(_ text: String) {
        guard let version = try? SemanticVersion(parsing: text) else { return nil }
        self = version
    }

    private static func split(_ text: Substring, at separator: Character) -> (Substring, Substring?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (text[..<index], text[text.index(after: index)...])
    }

    package var isPrerelease: Bool { !prerelease.isEmpty }

    /// MAJOR.MINOR.PATCH alone: the prerelease rule of ranges compares it.
    package var core: Core { Core(major: major, minor: minor, patch: patch) }

    package struct Core: Sendable, Hashable, Comparable {
        package var major: UInt64
        package var minor: UInt64
        package var patch: UInt64

        package static func < (a: Core, b: Core) -> Bool {
            (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
        }
    }

    /// The lowest version of `core`'s line: `1.2.3-0` precedes every other 1.2.3 prerelease (a
    /// numeric identifier precedes any other, and 0 is the least), so `< 2.0.0-0` shuts out
    /// 2.0.0's prereleases as well as 2.0.0.
    package static func lowest(of core: Core) -> SemanticVersion {
        SemanticVersion(major: core.major, minor: core.minor, patch: core.patch, prerelease: ["0"])
    }

    // MARK: - Precedence

    public static func == (a: SemanticVersion, b: SemanticVersion) -> Bool {
        a.core == b.core && a.prereleaseKeys == b.prereleaseKeys
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(core)
        hasher.combine(prereleaseKeys)
    }

    public static func < (a: SemanticVersion, b: SemanticVersion) -> Bool {
        if a.core != b.core { return a.core < b.core }
        // A prerelease precedes its release (§11.3).
        switch (a.prereleaseKeys.isEmpty, b.prereleaseKeys.isEmpty) {
        case (true, _): return false
        case (false, true): return true
        case (false, false): break
        }
        // Identifier by identifier; when one list is a prefix of the other, the shorter is lower (§11.4).
        for (left, right) in zip(a.prereleaseKeys, b.prereleaseKeys) where left != right {
            return left < right
        }
        return a.prereleaseKeys.count < b.prereleaseKeys.count
    }

    /// One prerelease identifier: digits only compare as numbers and precede any other; the rest
    /// compare by ASCII (§11.4). Numbers are kept as digit text without leading zeros, so any
    /// length compares right: a longer number is larger.
    private enum Identifier: Hashable, Comparable, Sendable {
        case numeric(Substring)
        case text(String)

        init(_ identifier: String) {
            if !identifier.isEmpty, identifier.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                let digits = identifier.drop { $0 == "0" }
                self = .numeric(digits.isEmpty ? "0" : digits)
            } else {
                self = .text(identifier)
            }
        }

        static func < (a: Identifier, b: Identifier) -> Bool {
            switch (a, b) {
            case let (.numeric(x), .numeric(y)):
                return x.utf8.count != y.utf8.count ? x.utf8.count < y.utf8.count : x.utf8.lexicographicallyPrecedes(y.utf8)
            case (.numeric, .text): return true
            case (.text, .numeric): return false
            case let (.text(x), .text(y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
            }
        }
    }
}

/// A version text that is not one, with the rule it breaks.
package struct VersionParseError: Error, Equatable, Sendable, CustomStringConvertible {
    package let text: String
    /// What is wrong beyond the rule itself, when there is more to say.
    package let reason: String?

    package var description: String {
        if let reason { return "'\(text)' is not a version: \(reason)" }
        return "'\(text)' is not a version: a version is \(ModuleIdentity.versionRule)"
    }
}

extension SemanticVersion: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try SemanticVersion(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension SemanticVersion {
    /// Whether this version is in `requirement`'s range (npm's prerelease rule included).
    package func satisfies(_ requirement: VersionRequirement) -> Bool {
        requirement.isSatisfied(by: self)
    }
}
