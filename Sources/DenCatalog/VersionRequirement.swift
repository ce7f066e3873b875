/// A range of versions, as a manifest's `requires` gives it (`"main": "^1.2"`, `"den": ">=1.1 <2"`),
/// in npm's notation (node-semver), which module authors already know:
///
/// - `^1.2.3` up to the next major; on 0.x the next minor (`^0.2.3` is `>=0.2.3 <0.3.0`) and on
///   0.0.x the next patch (`^0.0.3` is `=0.0.3`), as npm and Cargo read it;
/// - `~1.2.3` and `~1.2` up to the next minor, `~1` up to the next major;
/// - `1.2.x`, `1.2`, `1.x`, `1`, `*`: any version on that line; `=1.2.3` and bare `1.2.3` exactly;
/// - `>`, `>=`, `<`, `<=` with a full or partial version (`>=1.1` is `>=1.1.0`, `<=1.4` is `<1.5.0-0`,
///   `>1` is `>=2.0.0`), joined by spaces (all must hold) and alternatives by `||` (one must).
///
/// Prereleases (npm's rule): a version with a prerelease satisfies a set of comparators only if
/// one of them names a prerelease on the same MAJOR.MINOR.PATCH, so `^1.2.3-beta.1` admits
/// 1.2.3-beta.2 but not 1.3.0-alpha, and `^1.2` admits no prerelease at all. Whoever asks for a
/// range gets releases unless they opted in to one line's prereleases by naming it.
///
/// Build metadata is ignored, as in precedence. Equality is structural (as written, leading
/// zeros and spaces aside), and `description` parses back to an equal requirement.
public struct VersionRequirement: Sendable, Hashable, CustomStringConvertible {
    /// Alternatives (`||`), each a set of comparators that must all hold.
    package let alternatives: [[Comparator]]
    /// The same, as bounds: worked out once at parse, checked for every candidate version.
    private let sets: [ComparatorSet]

    package init(alternatives: [[Comparator]]) {
        self.alternatives = alternatives
        sets = alternatives.map(ComparatorSet.init)
    }

    /// Any release (`*`).
    package static let any = VersionRequirement(alternatives: [[Comparator(.bare, PartialVersion(parts: [.wildcard("*")]))]])

    /// Exactly `version` (`=1.2.3`): what a pin means.
    package static func exactly(_ version: SemanticVersion) -> VersionRequirement {
        VersionRequirement(alternatives: [[Comparator(.exact, PartialVersion(version))]])
    }

    package func isSatisfied(by version: SemanticVersion) -> Bool {
        sets.contains { $0.admits(version) }
    }

    public var description: String {
        alternatives.map { $0.map(\.description).joined(separator: " ") }.joined(separator: " || ")
    }

    public static func == (a: VersionRequirement, b: VersionRequirement) -> Bool { a.alternatives == b.alternatives }
    public func hash(into hasher: inout Hasher) { hasher.combine(alternatives) }
}

/// One comparator as written: an operator and a full or partial version.
package struct Comparator: Sendable, Hashable, CustomStringConvertible {
    package enum Operator: String, Sendable, CaseIterable {
        /// No operator: `1.2.3` exactly, `1.2` / `1.2.x` the line.
        case bare = ""
        case exact = "="
        case greater = ">"
        case greaterOrEqual = ">="
        case less = "<"
        case lessOrEqual = "<="
        case caret = "^"
        case tilde = "~"
    }

    package let op: Operator
    package let version: PartialVersion

    package init(_ op: Operator, _ version: PartialVersion) {
        self.op = op
        self.version = version
    }

    package var description: String { op.rawValue + version.description }
}

/// A version with trailing parts left out or wildcards (`1`, `1.2`, `1.x`, `*`), or a full one.
package struct PartialVersion: Sendable, Hashable, CustomStringConvertible {
    package enum Part: Sendable, Hashable {
        case number(UInt64)
        /// `x`, `X` or `*`, kept as written.
        case wildcard(Character)
    }

    /// One to three parts; numbers come before wildcards.
    package let parts: [Part]
    /// Set when all three parts are numbers: the version, with its prerelease and build.
    package let full: SemanticVersion?

    package init(parts: [Part]) {
        self.parts = parts
        full = nil
    }

    package init(_ version: SemanticVersion) {
        parts = [.number(version.major), .number(version.minor), .number(version.patch)]
        full = version
    }

    /// The leading numbers (those before the first wildcard or the end).
    package var numbers: [UInt64] {
        var numbers: [UInt64] = []
        for part in parts {
            guard case let .number(value) = part else { break }
            numbers.append(value)
        }
        return numbers
    }

    package var description: String {
        if let full { return full.description }
        return parts.map { part in
            switch part {
            case let .number(value): "\(value)"
            case let .wildcard(character): String(character)
            }
        }.joined(separator: ".")
    }
}
