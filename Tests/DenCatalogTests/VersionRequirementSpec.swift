@testable import DenCatalog
import Testing

@Suite("Version ranges: npm's notation, as a manifest's requires writes it")
struct VersionRequirementSpec {
    /// (range, versions it admits, versions it refuses)
    static let table: [(String, [String], [String])] = [
        // Caret: up to the next major; on 0.x the next minor; on 0.0.x the next patch.
        ("^1.2.3", ["1.2.3", "1.2.10", "1.9.9", "1.2.3+build"], ["1.2.2", "2.0.0", "2.0.0-alpha", "1.3.0-beta", "1.2.3-beta", "0.9.0"]),
        ("^0.2.3", ["0.2.3", "0.2.9"], ["0.2.2", "0.3.0", "1.0.0"]),
        ("^0.0.3", ["0.0.3"], ["0.0.2", "0.0.4", "0.1.0"]),
        ("^1.2", ["1.2.0", "1.99.0"], ["1.1.9", "2.0.0", "1.2.0-rc.1"]),
        ("^0.2", ["0.2.0", "0.2.9"], ["0.1.9", "0.3.0"]),
        ("^0.0", ["0.0.0", "0.0.9"], ["0.1.0"]),
        ("^0", ["0.0.0", "0.9.9"], ["1.0.0"]),
        ("^1", ["1.0.0", "1.9.9"], ["0.9.9", "2.0.0"]),
        ("^1.x", ["1.0.0", "1.9.9"], ["2.0.0"]),
        ("^0.x", ["0.0.1", "0.9.0"], ["1.0.0"]),
        ("^*", ["0.0.0", "7.0.0"], ["7.0.0-rc.1"]),
        ("^1.2.3-beta.2", ["1.2.3-beta.2", "1.2.3-beta.10", "1.2.3-rc.1", "1.2.3", "1.3.0", "1.99.0"],
         ["1.2.3-beta.1", "1.2.3-alpha", "1.3.0-alpha", "2.0.0-0", "2.0.0"]),
        ("^0.0.3-rc.1", ["0.0.3-rc.1", "0.0.3"], ["0.0.4", "0.0.4-rc.1"]),
        // Tilde: up to the next minor (the next major for ~1).
        ("~1.2.3", ["1.2.3", "1.2.9"], ["1.2.2", "1.3.0", "1.3.0-0"]),
        ("~1.2", ["1.2.0", "1.2.9"], ["1.1.9", "1.3.0"]),
        ("~1", ["1.0.0", "1.9.0"], ["2.0.0"]),
        ("~0.2.3", ["0.2.3", "0.2.5"], ["0.3.0"]),
        ("~1.2.3-beta.1", ["1.2.3-beta.1", "1.2.3-beta.2", "1.2.4"], ["1.2.4-beta.1", "1.3.0"]),
        // X-ranges and partial versions: the whole line, releases only.
        ("1.2.x", ["1.2.0", "1.2.99"], ["1.1.9", "1.3.0", "1.2.0-beta"]),
        ("1.2.X", ["1.2.5"], ["1.3.0"]),
        ("1.2.*", ["1.2.5"], ["1.3.0"]),
        ("1.2", ["1.2.0", "1.2.7"], ["1.3.0"]),
        ("1.x", ["1.0.0", "1.99.0"], ["0.9.0", "2.0.0"]),
        ("1.x.x", ["1.4.0"], ["2.0.0"]),
        ("1", ["1.0.0", "1.4.2"], ["2.0.0"]),
        ("*", ["0.0.0", "99.0.0"], ["1.0.0-beta"]),
        ("x", ["3.0.0"], ["3.0.0-rc.1"]),
        ("=1.x", ["1.3.0"], ["2.0.0"]),
        // Exactly one version (build metadata ignored).
        ("=1.2.3", ["1.2.3", "1.2.3+build.5", "01.2.3"], ["1.2.4", "1.2.2", "1.2.3-beta"]),
        ("1.2.3", ["1.2.3"], ["1.2.4", "1.2.3-rc.1"]),
        ("=1.2.3-beta.1", ["1.2.3-beta.1"], ["1.2.3-beta.2", "1.2.3"]),
        // Comparators, full and partial, alone and joined (AND).
        (">1.2.3", ["1.2.4", "2.0.0"], ["1.2.3", "1.2.4-beta", "1.0.0"]),
        (">1.2", ["1.3.0"], ["1.2.9", "1.2.0"]),
        (">1", ["2.0.0"], ["1.9.9"]),
        (">=1.1", ["1.1.0", "3.0.0"], ["1.0.9", "1.1.0-beta"]),
        (">=1.2.3", ["1.2.3", "1.3.0"], ["1.2.2", "1.2.3-rc.1"]),
        ("<2", ["1.99.99", "0.0.0"], ["2.0.0", "2.0.0-beta", "1.5.0-beta"]),
        ("<1.2.3", ["1.2.2"], ["1.2.3", "1.2.3-beta"]),
        ("<1.2", ["1.1.9"], ["1.2.0", "1.2.0-0"]),
        ("<=1.4", ["1.4.0", "1.4.99"], ["1.5.0", "1.5.0-0"]),
        ("<=1.2.3", ["1.2.3", "1.0.0"], ["1.2.4"]),
        (">=1.1 <2", ["1.1.0", "1.5.0"], ["1.0.9", "2.0.0", "1.5.0-rc.1"]),
        (">=1.0.0-rc.1 <2", ["1.0.0-rc.1", "1.0.0-rc.2", "1.0.0", "1.9.0"], ["1.0.0-beta", "1.1.0-rc.1", "2.0.0"]),
        (">=1.2.7 <1.3.0", ["1.2.7", "1.2.99"], ["1.2.6", "1.3.0"]),
        (">1.2.3 <1.0.0", [], ["1.1.0", "1.2.4", "0.9.0"]),
        (">*", [], ["0.0.0", "1.0.0"]),
        ("<*", [], ["0.0.0", "1.0.0"]),
        (">=*", ["0.0.0", "1.0.0"], ["1.0.0-a"]),
        // Alternatives (OR).
        ("^1.2 || ^2", ["1.2.0", "1.5.0", "2.0.0", "2.9.0"], ["1.1.0", "3.0.0"]),
        ("1.2.3 || >=2.0.0 <2.1", ["1.2.3", "2.0.5"], ["1.2.4", "2.1.0"]),
        ("<1 || >=3.0.0-beta.1", ["0.5.0", "3.0.0-beta.2", "3.0.0", "4.0.0"], ["1.0.0", "2.9.9", "4.0.0-beta.1"]),
        // The largest numbers: a bound past UInt64.max is no bound (nothing is above it).
        ("^18446744073709551615.0.0", ["18446744073709551615.0.0", "18446744073709551615.5.0"], ["18446744073709551614.9.9"]),
        (">18446744073709551615", [], ["18446744073709551615.18446744073709551615.18446744073709551615"]),
        ("<=18446744073709551615.18446744073709551615", ["18446744073709551615.18446744073709551615.7"], []),
        ("^0.0.18446744073709551615", ["0.0.18446744073709551615"], ["0.1.0"]),
        ("~1.18446744073709551615", ["1.18446744073709551615.3"], ["2.0.0"]),
    ]

    @Test("each form admits the versions npm's reading admits, and refuses the others", arguments: table)
    func forms(range text: String, admits: [String], refuses: [String]) throws {
        let requirement = try range(text)
        for admitted in admits { #expect(try version(admitted).satisfies(requirement), "\(text) admits \(admitted)") }
        for refused in refuses { #expect(try !version(refused).satisfies(requirement), "\(text) refuses \(refused)") }
    }

    @Test("prereleases: only a comparator naming one on the same MAJOR.MINOR.PATCH lets any in (npm's rule)")
    func prereleaseRule() throws {
        let release = try range("^1.2")
        for text in ["1.2.0-0", "1.2.5-rc.1", "1.9.0-beta"] { #expect(try !version(text).satisfies(release), "^1.2 refuses \(text)") }
        let optedIn = try range(">=1.2.5-rc.1 <1.3")
        #expect(try version("1.2.5-rc.2").satisfies(optedIn))
        #expect(try !version("1.2.6-rc.2").satisfies(optedIn), "another line's prerelease stays out")
        // The opt-in holds per alternative: the other alternative does not name 1.2.5.
        let split = try range("^1.2 || 1.2.5-rc.1")
        #expect(try version("1.2.5-rc.1").satisfies(split))
        #expect(try !version("1.2.5-rc.2").satisfies(split))
    }

    @Test("'||' is the union of its sides for every version; spaces the intersection for every release")
    func unionAndIntersection() throws {
        var numbers = SeededNumbers(seed: 41)
        let ranges = ["^1.2", "~0.3.1", ">=1.1 <2", "1.x", "<0.5", ">2.0.1", "=1.4.0", "^0.0.3", "*", "<=1.4", "^1.2.3-beta.1"]
        let versions = try (0..<200).map { _ in
            try version("\(numbers.below(3)).\(numbers.below(6)).\(numbers.below(4))" + numbers.pick(["", "", "-beta.1", "-rc.2"]))
        }
        for _ in 0..<150 {
            let (a, b) = (numbers.pick(ranges), numbers.pick(ranges))
            let (left, right, either) = (try range(a), try range(b), try range("\(a) || \(b)"))
            for version in versions {
                #expect(version.satisfies(either) == (version.satisfies(left) || version.satisfies(right)), "\(a) || \(b) at \(version)")
            }
            guard !a.contains("||"), !b.contains("||") else { continue }
            let both = try range("\(a) \(b)")
            for version in versions where !version.isPrerelease {
                #expect(version.satisfies(both) == (version.satisfies(left) && version.satisfies(right)), "\(a) \(b) at \(version)")
            }
        }
    }

    @Test("description parses back to an equal range; written canonically it is the text itself",
          arguments: ["^1.2.3", "^0.2", "~1.2", "1.2.x", "1.X", "*", "=1.2.3", "1.2.3", ">=1.1 <2", "^1.2 || ^2", ">1.2.3-rc.1+b.7",
                      "<=1.4 || =2.0.0-beta || 3.x.*", "^18446744073709551615.0.0", "1.2.3+build"])
    func roundTrip(text: String) throws {
        let requirement = try range(text)
        #expect(requirement.description == text)
        #expect(try range(requirement.description) == requirement)
    }

    @Test("spaces after an operator and around '||' are accepted, and written out in the canonical form",
          arguments: [(">= 1.1  < 2", ">=1.1 <2"), ("^1||^2", "^1 || ^2"), ("  ~1.2  ", "~1.2"), ("01.2", "1.2"), ("^ 1.2", "^1.2")])
    func canonical(text: String, canonical: String) throws {
        #expect(try range(text).description == canonical)
        #expect(try range(text) == range(canonical))
    }

    /// (text, a phrase the refusal must hold)
    static let malformed: [(String, String)] = [
        ("", "empty; write * for any version"),
        ("   ", "empty"),
        ("^", "'^' is not followed by a version"),
        (">=1.1 >=", "'>=' is not followed by a version"),
        ("1.2.3.4", "more than three parts"),
        ("1.x.3", "a number after a wildcard"),
        ("*.1", "a number after a wildcard"),
        ("1.2-beta", "needs all three numbers"),
        ("1.x+build", "needs all three numbers"),
        ("v1.2.3", "'v' before its version; write 1.2.3"),
        ("^v1", "'v' before its version; write ^1"),
        (">=1.1, <2", "not commas"),
        ("1.2 - 2.3", "hyphen ranges"),
        ("^1 | ^2", "single '|'"),
        ("^1 ||", "empty"),
        ("|| ^1", "empty"),
        ("^1 |||| ^2", "empty"),
        ("=>1.2", "'=>' in '=>1.2' is not an operator"),
        ("~>1.2", "'~>' is not an operator here"),
        ("==1.2.3", "'==' in '==1.2.3' is not an operator"),
        ("^^1", "'^^' in '^^1' is not an operator"),
        ("1.2.3-é", "not ASCII"),
        ("^1\t<2", "a tab"),
        ("^1\n", "a line break"),
        ("1..2", "an empty part"),
        ("1.", "an empty part"),
        ("latest", "'latest' is neither a number nor x, X or *"),
        ("1.2.3-", "in '1.2.3-', '1.2.3-' is not a version"),
        ("^1.2.3+", "is not a version"),
        ("99999999999999999999.0.0", "99999999999999999999 is larger than 18446744073709551615"),
        (">=18446744073709551616", "18446744073709551616 is larger than 18446744073709551615"),
        (String(repeating: "^1 ", count: 400), "is at most 1024"),
    ]

    @Test("malformed ranges are refused as values that say what is wrong and list the accepted forms", arguments: malformed)
    func refusals(text: String, phrase: String) {
        do {
            _ = try VersionRequirement(parsing: text)
            Issue.record("'\(text)' was accepted")
        } catch {
            #expect(error.text == text)
            #expect(error.description.contains(phrase), "\(error.description)")
            #expect(error.description.contains("Accepted: ^1.2.3, ~1.2.3, 1.2.x"))
        }
    }

    @Test("any and exactly: what a missing range and a pin mean")
    func constructors() throws {
        #expect(VersionRequirement.any.description == "*")
        #expect(try version("4.0.0").satisfies(.any))
        #expect(try !version("4.0.0-rc.1").satisfies(.any))
        let pin = VersionRequirement.exactly(try version("1.4.0-rc.1"))
        #expect(pin.description == "=1.4.0-rc.1")
        #expect(try version("1.4.0-rc.1").satisfies(pin))
        #expect(try !version("1.4.0").satisfies(pin))
    }
}
