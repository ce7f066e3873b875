/// One alternative of a requirement as bounds on precedence, plus the lines whose prereleases it
/// names. Each comparator becomes at most a lower and an upper bound (npm's desugaring), so a
/// check is a few comparisons, however the range was written.
struct ComparatorSet: Sendable {
    struct Bound: Sendable {
        var version: SemanticVersion
        var inclusive: Bool
    }

    private var lowers: [Bound] = []
    private var uppers: [Bound] = []
    /// A comparator no version meets (`<*`, `>*`, `>` the largest number).
    private var isEmpty = false
    /// MAJOR.MINOR.PATCH of every prerelease the comparators name (npm's prerelease rule).
    private var prereleaseLines: [SemanticVersion.Core] = []

    init(_ comparators: [Comparator]) {
        for comparator in comparators { add(comparator) }
    }

    func admits(_ version: SemanticVersion) -> Bool {
        if isEmpty { return false }
        if version.isPrerelease, !prereleaseLines.contains(version.core) { return false }
        for bound in lowers where bound.inclusive ? version < bound.version : version <= bound.version { return false }
        for bound in uppers where bound.inclusive ? version > bound.version : version >= bound.version { return false }
        return true
    }

    private mutating func add(_ comparator: Comparator) {
        let partial = comparator.version
        if let full = partial.full {
            if full.isPrerelease { prereleaseLines.append(full.core) }
            addFull(comparator.op, full)
        } else {
            addPartial(comparator.op, partial.numbers)
        }
    }

    private mutating func addFull(_ op: Comparator.Operator, _ version: SemanticVersion) {
        let core = version.core
        switch op {
        case .bare, .exact:
            lowers.append(Bound(version: version, inclusive: true))
            uppers.append(Bound(version: version, inclusive: true))
        case .greater: lowers.append(Bound(version: version, inclusive: false))
        case .greaterOrEqual: lowers.append(Bound(version: version, inclusive: true))
        case .less: uppers.append(Bound(version: version, inclusive: false))
        case .lessOrEqual: uppers.append(Bound(version: version, inclusive: true))
        case .caret:
            lowers.append(Bound(version: version, inclusive: true))
            // The first non-zero part is the one that may not change (0.0.x: the patch).
            let position = core.major > 0 ? 0 : core.minor > 0 ? 1 : 2
            addUpper(below: Self.next(core, at: position))
        case .tilde:
            lowers.append(Bound(version: version, inclusive: true))
            addUpper(below: Self.next(core, at: 1))
        }
    }

    private mutating func addPartial(_ op: Comparator.Operator, _ numbers: [UInt64]) {
        guard !numbers.isEmpty else {
            // `*` and its spellings: anything, but for `>*` and `<*`, which nothing meets.
            if op == .greater || op == .less { isEmpty = true }
            return
        }
        let core = SemanticVersion.Core(major: numbers[0], minor: numbers.count > 1 ? numbers[1] : 0, patch: 0)
        let lowest = SemanticVersion(major: core.major, minor: core.minor, patch: 0)
        // The line's end: `1` → 2.0.0, `1.2` → 1.3.0.
        let lineEnd = Self.next(core, at: numbers.count - 1)
        switch op {
        case .bare, .exact:
            lowers.append(Bound(version: lowest, inclusive: true))
            addUpper(below: lineEnd)
        case .greater:
            // Past the whole line: `>1.2` is `>=1.3.0`; past the largest line there is nothing.
            if let lineEnd {
                lowers.append(Bound(version: SemanticVersion(major: lineEnd.major, minor: lineEnd.minor, patch: lineEnd.patch), inclusive: true))
            } else {
                isEmpty = true
            }
        case .greaterOrEqual: lowers.append(Bound(version: lowest, inclusive: true))
        case .less: addUpper(below: core)
        case .lessOrEqual: addUpper(below: lineEnd)
        case .caret:
            lowers.append(Bound(version: lowest, inclusive: true))
            // `^1.2` keeps the major; `^0.2` and `^0.0` keep the minor; `^0` keeps the major.
            let position = numbers.count == 1 || core.major > 0 ? 0 : 1
            addUpper(below: Self.next(core, at: position))
        case .tilde:
            lowers.append(Bound(version: lowest, inclusive: true))
            addUpper(below: lineEnd)
        }
    }

    /// An exclusive upper bound below every version of `core`'s line, its prereleases included;
    /// none when the bump overflowed (nothing is above the largest version).
    private mutating func addUpper(below core: SemanticVersion.Core?) {
        guard let core else { return }
        uppers.append(Bound(version: SemanticVersion.lowest(of: core), inclusive: false))
    }

    /// `core` with the part at `position` (0 major, 1 minor, 2 patch) raised by one and the later
    /// parts zeroed; an overflow carries into the part before; nil past the largest major.
    static func next(_ core: SemanticVersion.Core, at position: Int) -> SemanticVersion.Core? {
        switch position {
        case 2:
            if core.patch < .max { return .init(major: core.major, minor: core.minor, patch: core.patch + 1) }
            return next(core, at: 1)
        case 1:
            if core.minor < .max { return .init(major: core.major, minor: core.minor + 1, patch: 0) }
            return next(core, at: 0)
        default:
            if core.major < .max { return .init(major: core.major + 1, minor: 0, patch: 0) }
            return nil
        }
    }
}
