@testable import DenModuleFiles
import Testing

@Suite("Module ids and versions: the rules den_module.h states, checked byte by byte")
struct ModuleIdentitySpec {
    /// The version rule as a regular expression: the reference the byte-by-byte check is held to.
    private static func reference(_ version: String) -> Bool {
        (5...64).contains(version.utf8.count)
            && version.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.\-]+)?(\+[0-9A-Za-z.\-]+)?/) != nil
    }

    @Test("every string of up to 6 characters from '1', '.', '-', '+', 'a' is judged as the rule's regular expression judges it")
    func exhaustiveShortVersions() {
        let alphabet: [Character] = ["1", ".", "-", "+", "a"]
        var strings = [""]
        var disagreements: [String] = []
        for _ in 1...6 {
            strings = strings.flatMap { prefix in alphabet.map { prefix + String($0) } }
            for version in strings where ModuleIdentity.isValidVersion(version) != Self.reference(version) {
                disagreements.append(version)
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    @Test("versions that real modules use, and near misses",
          arguments: ["1.0.0", "10.20.30", "1.0.0-beta.1", "1.0.0+build.7", "2.1.0-rc-1+sha.5114f85", "1.0.0-0.3.7",
                      "1.0", "1.0.0.0", "v1.0.0", "1.0.0-", "1.0.0+", "1.0.0-+b", "1.0.0+b+c", "1.0.0-é", "1..0", " 1.0.0",
                      "1.0.0 ", "1.0.0\n", String(repeating: "1", count: 60) + ".0.0", "1.0.0-" + String(repeating: "a", count: 58)])
    func knownVersions(version: String) {
        #expect(ModuleIdentity.isValidVersion(version) == Self.reference(version))
    }

    @Test("ids: a letter or digit first, then a-z, 0-9, '-' and '_', at most 64",
          arguments: [("about", true), ("bench-m1", true), ("a_b", true), ("9lives", true), (String(repeating: "a", count: 64), true),
                      ("", false), ("-a", false), ("_a", false), ("About", false), ("a.b", false), ("a b", false), ("é", false),
                      (String(repeating: "a", count: 65), false), ("../etc", false)])
    func ids(id: String, valid: Bool) {
        #expect(ModuleIdentity.isValidID(id) == valid)
    }
}
