@testable import DenCatalog
import DenKit
import Foundation
import Testing

@Suite("A catalog's index.json: read as written, refused whole when any entry is wrong")
struct CatalogIndexSpec {
    static let json = #"""
    {
      "format": 1,
      "serial": 9223372036854775809,
      "generated": "2026-05-01T12:00:00Z",
      "modules": {
        "main": [
          {
            "version": "1.2.0",
            "file": "files/main/main-1.2.0.so",
            "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "size": 2930000,
            "publisher": "E9C0E4A1B2C3D4F5",
            "manifest": {"id": "main", "version": "1.2.0", "summary": "A currency converter", "requires": {"den": ">=1.1 <2"},
                         "permissions": {"http": ["api.example.org"], "auth": true}}
          }
        ],
        "jogs-stats": [
          {
            "version": "2.0.0",
            "file": "files/jogs-stats/jogs-stats-2.0.0.so",
            "sha256": "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752",
            "size": 812,
            "publisher": "0123456789ABCDEF",
            "manifest": {"id": "jogs-stats", "version": "2.0.0", "requires": {"main": "^1.2", "den": ">=1.4"}}
          }
        ]
      }
    }
    """#

    static func index() throws -> CatalogIndex { try CatalogIndex.decode(Data(json.utf8)) }

    @Test("a well-formed index decodes, validates, and survives encoding (a serial above 2^63 included)")
    func wellFormed() throws {
        let index = try Self.index()
        #expect(index.problems().isEmpty, "\(index.problems())")
        #expect(index.serial == 9_223_372_036_854_775_809)
        let main = try #require(index.modules["main"]?.first)
        #expect(main.manifest.permissions == ModulePermissions(http: ["api.example.org"], auth: true))
        #expect(main.manifest.requires == ["den": ">=1.1 <2"])
        #expect(index.modules["jogs-stats"]?.first?.manifest.summary == "", "summary may be left out")
        #expect(try CatalogIndex.decode(index.json()) == index)
    }

    @Test("the snapshot holds every version with its requirements parsed")
    func snapshot() throws {
        let snapshot = try Self.index().snapshot()
        #expect(snapshot.ids == ["jogs-stats", "main"])
        let stats = try #require(snapshot.releases(of: "jogs-stats").first)
        #expect(stats.version == (try version("2.0.0")))
        #expect(stats.requires["main"] == (try range("^1.2")))
        #expect(snapshot.releases(of: "nothing").isEmpty)
    }

    /// (what is wrong, how to make it so on the main 1.2.0 entry, a phrase the problem must hold)
    static let tampering: [(String, @Sendable (inout CatalogIndex) -> Void, String)] = [
        ("bad module id", { $0.modules["Main"] = $0.modules.removeValue(forKey: "main") }, "module id 'Main' is not valid"),
        ("den's own id", { $0.modules["den"] = $0.modules.removeValue(forKey: "main") }, "module id 'den' names den itself"),
        ("bad version", { $0.modules["main"]![0].version = "1.2"; $0.modules["main"]![0].manifest.version = "1.2" },
         "main 1.2: '1.2' is not a version"),
        ("absolute file", { $0.modules["main"]![0].file = "/etc/passwd" }, "main 1.2.0: file '/etc/passwd' is absolute"),
        ("file going up", { $0.modules["main"]![0].file = "files/../../secret.so" }, "main 1.2.0: file 'files/../../secret.so' contains '..'"),
        ("file going up at the start", { $0.modules["main"]![0].file = "../x.so" }, "contains '..'"),
        ("backslash", { $0.modules["main"]![0].file = "files\\main.so" }, "contains a backslash"),
        ("empty file", { $0.modules["main"]![0].file = "" }, "main 1.2.0: file '' is empty"),
        ("dot part", { $0.modules["main"]![0].file = "./files/main.so" }, "not in plain form"),
        ("double slash", { $0.modules["main"]![0].file = "files//main.so" }, "not in plain form"),
        ("control character", { $0.modules["main"]![0].file = "files/main\n.so" }, "contains a control character"),
        ("url", { $0.modules["main"]![0].file = "https://evil.example/main.so" }, "contains ':'"),
        ("uppercase hash", { $0.modules["main"]![0].sha256 = String(repeating: "A", count: 64) }, "is not 64 lowercase hex digits"),
        ("short hash", { $0.modules["main"]![0].sha256 = "9f86d081" }, "sha256 '9f86d081' is not 64 lowercase hex digits"),
        ("long hash", { $0.modules["main"]![0].sha256 = String(repeating: "a", count: 65) }, "is not 64 lowercase hex digits"),
        ("non-hex hash", { $0.modules["main"]![0].sha256 = String(repeating: "g", count: 64) }, "is not 64 lowercase hex digits"),
        ("empty file size", { $0.modules["main"]![0].size = 0 }, "main 1.2.0: size 0"),
        ("huge file size", { $0.modules["main"]![0].size = 256 * 1024 * 1024 + 1 }, "size 268435457 bytes is above the limit of 268435456"),
        ("lowercase publisher", { $0.modules["main"]![0].publisher = "e9c0e4a1b2c3d4f5" }, "is not a minisign key id"),
        ("short publisher", { $0.modules["main"]![0].publisher = "E9C0" }, "publisher 'E9C0' is not a minisign key id"),
        ("manifest id", { $0.modules["main"]![0].manifest.id = "evil" }, "main 1.2.0: its manifest's id is 'evil'"),
        ("manifest version", { $0.modules["main"]![0].manifest.version = "1.3.0" }, "main 1.2.0: its manifest's version is '1.3.0'"),
        ("duplicate version", { index in
            var copy = index.modules["main"]![0]
            copy.file = "files/main/copy.so"
            index.modules["main"]!.append(copy)
        }, "main 1.2.0 is listed twice"),
        ("same precedence", { index in
            var twin = index.modules["main"]![0]
            (twin.version, twin.manifest.version, twin.file) = ("1.2.0+rebuild", "1.2.0+rebuild", "files/main/main-1.2.0b.so")
            index.modules["main"]!.append(twin)
        }, "main 1.2.0+rebuild is listed twice: 1.2.0 is the same version"),
        ("shared file", { index in
            var other = index.modules["main"]![0]
            (other.version, other.manifest.version) = ("1.3.0", "1.3.0")
            index.modules["main"]!.append(other)
        }, "main 1.3.0: file 'files/main/main-1.2.0.so' is also main 1.2.0's"),
        ("bad range", { $0.modules["main"]![0].manifest.requires["jogs"] = "^1.2 - 2" },
         "main 1.2.0: its requirement on jogs: '^1.2 - 2' is not a version range: hyphen ranges"),
        ("bad required id", { $0.modules["main"]![0].manifest.requires["Jogs"] = "^1" }, "it requires 'Jogs', which is not a module id"),
        ("requires itself", { $0.modules["main"]![0].manifest.requires["main"] = "^1" }, "main 1.2.0: it requires itself"),
        ("bad permission", { $0.modules["main"]![0].manifest.permissions.http = ["https://x/"] }, "http permission 'https://x/'"),
        ("format", { $0.format = 2 }, "format 2 is not one this den reads (it reads 1)"),
        ("generated", { $0.generated = "yesterday" }, "generated 'yesterday' is not an ISO 8601 time"),
        ("generated month 13", { $0.generated = "2026-13-01T12:00:00Z" }, "is not an ISO 8601 time"),
        ("generated without zone", { $0.generated = "2026-05-01T12:00:00" }, "is not an ISO 8601 time"),
    ]

    @Test("each kind of bad entry is refused, naming the module and version", arguments: tampering)
    func refusals(name: String, tamper: @Sendable (inout CatalogIndex) -> Void, phrase: String) throws {
        var index = try Self.index()
        tamper(&index)
        let problems = index.problems()
        #expect(problems.count == 1, "\(name): \(problems)")
        #expect(problems.first?.contains(phrase) == true, "\(name): \(problems)")
        #expect(throws: CatalogIndexInvalid(problems: problems)) { try index.validate() }
        #expect(throws: CatalogIndexInvalid.self) { try index.snapshot() }
    }

    @Test("what a newer den may write is not refused: unknown keys, a permission this den does not know (kept for install to refuse)")
    func newerWriters() throws {
        let json = Self.json.replacingOccurrences(of: #""auth": true}"#, with: #""auth": true, "clipboard": true}, "signedAt": 5"#)
            .replacingOccurrences(of: #""format": 1,"#, with: #""format": 1, "mirrors": ["https://example.org"],"#)
        let index = try CatalogIndex.decode(Data(json.utf8))
        #expect(index.problems().isEmpty, "\(index.problems())")
        #expect(index.modules["main"]?.first?.manifest.permissions.unknownNames == ["clipboard"])
    }

    @Test("times in other ISO 8601 spellings are accepted",
          arguments: ["2026-05-01T12:00:00.123Z", "2026-05-01T12:00:00+02:00", "2026-12-31T23:59:60Z", "2026-05-01T00:00:00.123456789-11:30"])
    func times(generated: String) throws {
        var index = try Self.index()
        index.generated = generated
        #expect(index.problems().isEmpty)
    }

    @Test("every problem is reported at once, modules in id order, and the limit is the caller's")
    func allProblems() throws {
        var index = try Self.index()
        index.modules["main"]![0].sha256 = "x"
        index.modules["main"]![0].size = 0
        index.modules["jogs-stats"]![0].file = "/abs.so"
        let problems = index.problems()
        #expect(problems.count == 3)
        #expect(problems.first?.hasPrefix("jogs-stats 2.0.0: file '/abs.so'") == true, "\(problems)")
        #expect(try Self.index().problems(limits: CatalogLimits(maximumFileBytes: 1000)) == ["main 1.2.0: size 2930000 bytes is above the limit of 1000"])
        do {
            try index.validate()
            Issue.record("an index with problems validated")
        } catch {
            #expect(error.description.hasPrefix("the catalog's index is refused: jogs-stats 2.0.0"))
        }
    }

    @Test("an index of the wrong shape does not decode",
          arguments: [#"{"format":1,"serial":1,"generated":"2026-05-01T12:00:00Z"}"#,
                      #"{"format":1,"serial":-1,"generated":"x","modules":{}}"#,
                      #"{"format":1,"serial":1,"generated":"x","modules":{"a":[{"version":"1.0.0"}]}}"#,
                      #"{"format":"1","serial":1,"generated":"x","modules":{}}"#, "[]", ""])
    func wrongShape(json: String) {
        #expect(throws: (any Error).self) { try CatalogIndex.decode(Data(json.utf8)) }
    }
}
