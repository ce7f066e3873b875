@testable import DenCatalog
import DenModuleFiles
import Foundation
import Testing

@Suite("Semantic versions: den's version rule, SemVer 2.0.0's precedence")
struct SemanticVersionSpec {
    @Test("semver.org's own example orders: 1.0.0-alpha < 1.0.0-alpha.1 < 1.0.0-alpha.beta < 1.0.0-beta < … < 1.0.0")
    func prereleaseOrder() throws {
        let texts = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
                     "1.0.0-rc.1", "1.0.0", "1.0.1-0", "1.0.1", "1.9.0", "1.10.0", "1.10.1", "2.0.0-0", "2.0.0", "10.0.0"]
        let versions = try texts.map(version)
        for (i, lower) in versions.enumerated() {
            for higher in versions[(i + 1)...] {
                #expect(lower < higher, "\(lower) < \(higher)")
                #expect(!(higher < lower), "!(\(higher) < \(lower))")
                #expect(lower != higher)
            }
        }
        #expect(try texts.reversed().map(version).sorted().map(\.description) == texts)
    }

    @Test("numeric identifiers compare as numbers of any length, before alphanumeric ones; text compares by ASCII",
          arguments: [("1.0.0-2", "1.0.0-10"), ("1.0.0-rc.99999999999999999999", "1.0.0-rc.100000000000000000000"),
                      ("1.0.0-999", "1.0.0-a"), ("1.0.0-1", "1.0.0-1a"), ("1.0.0-B", "1.0.0-a"), ("1.0.0-a.b", "1.0.0-a-b"),
                      ("1.0.0-a.0", "1.0.0-a..b"), ("1.0.0-alpha", "1.0.0-alpha.0"), ("18446744073709551614.0.0", "18446744073709551615.0.0")])
    func identifierOrder(lower: String, higher: String) throws {
        #expect(try version(lower) < version(higher))
        #expect(try !(version(higher) < version(lower)))
    }

    @Test("build metadata and leading zeros do not count for precedence; the text as written is kept")
    func equalPrecedence() throws {
        let pairs = [("1.0.0+a", "1.0.0+b"), ("1.0.0", "1.0.0+build.7"), ("01.2.3", "1.2.3"), ("1.0.0-rc.01", "1.0.0-rc.1"),
                     ("1.0.0-beta+x", "1.0.0-beta")]
        for (a, b) in pairs {
            let (x, y) = (try version(a), try version(b))
            #expect(x == y, "\(a) == \(b)")
            #expect(x.hashValue == y.hashValue)
            #expect(!(x < y) && !(y < x))
            #expect(x.description == a)
        }
        #expect(Set(try ["1.0.0+a", "1.0.0+b", "1.0.0"].map(version)).count == 1)
        #expect(try version("1.2.3-rc.1+sha.5114f85").build == ["sha", "5114f85"])
        #expect(try version("1.2.3-rc.1+sha.5114f85").prerelease == ["rc", "1"])
    }

    @Test("the order is total: exactly one of <, ==, > for every pair, and < is transitive, over 40 versions")
    func totalOrder() throws {
        var numbers = SeededNumbers(seed: 7)
        let parts = ["0", "1", "2", "10"]
        let labels = ["", "-alpha", "-alpha.1", "-1", "-beta", "-0", "-a..b", "-rc.01", "-rc.1"]
        let builds = ["", "+b", "+c.1"]
        let versions = try (0..<40).map { _ in
            try version(numbers.pick(parts) + "." + numbers.pick(parts) + "." + numbers.pick(parts) + numbers.pick(labels) + numbers.pick(builds))
        }
        for a in versions {
            for b in versions {
                let outcomes = [a < b, a == b, b < a].filter { $0 }
                #expect(outcomes.count == 1, "\(a) vs \(b)")
                for c in versions where a < b && b < c { #expect(a < c, "\(a) < \(b) < \(c)") }
            }
        }
    }

    @Test("every string of up to 6 characters from '0', '1', '.', '-', '+', 'a' parses exactly when ModuleIdentity accepts it")
    func sameRuleAsModules() {
        let alphabet: [Character] = ["0", "1", ".", "-", "+", "a"]
        var strings = [""]
        var disagreements: [String] = []
        for _ in 1...6 {
            strings = strings.flatMap { prefix in alphabet.map { prefix + String($0) } }
            for text in strings where (SemanticVersion(text) != nil) != ModuleIdentity.isValidVersion(text) {
                disagreements.append(text)
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    @Test("refusals say what is wrong: not den's rule, or a number too large to hold",
          arguments: ["", "1.0", "1.0.0.0", "v1.0.0", "1.0.0-", "1.0.0+", " 1.0.0", "1.0.0 ", "1.0.0-é", "1..0", "-1.0.0",
                      "1.0.0-a+b+c", String(repeating: "1", count: 62) + ".0.0"])
    func refusals(text: String) {
        #expect(throws: VersionParseError(text: text, reason: nil)) { try SemanticVersion(parsing: text) }
        let error = VersionParseError(text: text, reason: nil)
        #expect(error.description.contains("MAJOR.MINOR.PATCH"))
    }

    @Test("MAJOR, MINOR and PATCH up to UInt64.max parse; one more is refused, naming the number")
    func largestNumbers() throws {
        let largest = try version("18446744073709551615.18446744073709551615.18446744073709551615")
        #expect(largest.major == .max && largest.minor == .max && largest.patch == .max)
        do {
            _ = try SemanticVersion(parsing: "1.18446744073709551616.0")
            Issue.record("a minor above UInt64.max was accepted")
        } catch {
            #expect(error.description.contains("18446744073709551616 is larger than 18446744073709551615"))
        }
    }

    @Test("Codable as its text; a bad text fails decoding with the rule")
    func codable() throws {
        let data = try JSONEncoder().encode(["v": try version("1.2.3-rc.1+b")])
        #expect(String(decoding: data, as: UTF8.self) == #"{"v":"1.2.3-rc.1+b"}"#)
        #expect(try JSONDecoder().decode([String: SemanticVersion].self, from: data)["v"]?.description == "1.2.3-rc.1+b")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([SemanticVersion].self, from: Data(#"["1.2"]"#.utf8)) }
    }
}
