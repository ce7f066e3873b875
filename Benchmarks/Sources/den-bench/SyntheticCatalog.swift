import DenCatalog
import Foundation

/// The resolver figure's catalog: 1,000 module ids with 10 versions each (1.0.0 to 1.4.0, 2.0.0
/// to 2.4.0), made up the same way on every run so the figure compares run to run.
///
/// - `mod-0000` … `mod-0959`: six blocks of 160. Each module requires the next in its block (a
///   chain 160 deep), the 7th and 29th after it when still in the block, and one of the shared
///   libraries, with caret, tilde and comparator ranges on the line of its own major; every
///   fourth also requires `den >=1.0 <2`, and the newest version of every tenth requires
///   `den >=1.5`, a newer den than the one resolving, so the resolver falls back to 2.3.0 there.
/// - `mod-0960` … `mod-0977`: six traps of three, a → b → c. Every 2.x of c requires `den >=1.5`,
///   which only shows once c is tried, so a request for a's newest line backtracks through
///   5 × 5 × 5 choices of a, b and c before it settles on the 1.x line.
/// - `mod-0978` … `mod-0999`: 22 libraries that require nothing but, on even versions, den.
struct SyntheticCatalog {
    struct Release {
        var id: String
        var version: String
        var requires: [String: String]
    }

    static let moduleCount = 1000
    static let versions = ["1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "2.0.0", "2.1.0", "2.2.0", "2.3.0", "2.4.0"]
    static let blockSize = 160
    static let chainEnd = 960
    static let trapEnd = 978
    /// The den the requests are resolved for: 1.x, below the `>=1.5` some releases ask for.
    static let denVersion = "1.4.0"
    /// The deep request: the top of the first block, on its newest line.
    static let deepRequest = (id: id(0), range: "^2")
    /// The backtracking request: the first trap's a, on its newest line.
    static let trapRequest = (id: id(chainEnd), range: ">=1.0")

    static func id(_ index: Int) -> String {
        let digits = String(index)
        return "mod-" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    let releases: [Release]

    init() {
        var releases: [Release] = []
        releases.reserveCapacity(Self.moduleCount * Self.versions.count)
        for index in 0..<Self.moduleCount {
            for (k, version) in Self.versions.enumerated() {
                releases.append(Release(id: Self.id(index), version: version, requires: Self.requires(index, k)))
            }
        }
        self.releases = releases
    }

    /// What version `k` of module `index` requires.
    static func requires(_ index: Int, _ k: Int) -> [String: String] {
        let two = k >= 5
        var requires: [String: String] = [:]
        if index < chainEnd {
            let blockEnd = (index / blockSize + 1) * blockSize
            if index + 1 < blockEnd { requires[id(index + 1)] = two ? "^2.1" : "^1.2" }
            if index + 7 < blockEnd { requires[id(index + 7)] = two ? "~2" : ">=1.1 <2" }
            if index + 29 < blockEnd { requires[id(index + 29)] = two ? ">=2.0 <3" : "~1" }
            requires[id(trapEnd + index % (moduleCount - trapEnd))] = two ? "^2.0 || ^1.4" : "^1.0"
            if index % 4 == 0 { requires["den"] = ">=1.0 <2" }
            if index % 10 == 3, k == versions.count - 1 { requires["den"] = ">=1.5" }
        } else if index < trapEnd {
            switch (index - chainEnd) % 3 {
            case 0: requires[id(index + 1)] = two ? "^2.0" : "^1.0"
            case 1: requires[id(index + 1)] = two ? "^2.0" : "^1.1"
            default: requires["den"] = two ? ">=1.5" : ">=1.0 <2"
            }
        } else if k % 2 == 0 {
            requires["den"] = ">=1.0"
        }
        return requires
    }

    /// The catalog's `index.json`, as `den modules publish` writes it (pretty, keys sorted), with
    /// made-up hashes and sizes: decoding reads every field the same way whatever it holds.
    func indexJSON() throws -> Data {
        var modules: [String: [CatalogEntry]] = [:]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func hex(_ count: Int) -> String {
            var text = ""
            while text.count < count {
                // splitmix64: repeatable filler for the sha256 fields.
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                text += String(z ^ (z >> 31), radix: 16)
            }
            return String(text.prefix(count))
        }
        for release in releases {
            let manifest = CatalogManifest(id: release.id, version: release.version,
                                           summary: "Synthetic module \(release.id) of the catalog benchmark", requires: release.requires)
            let entry = CatalogEntry(version: release.version, file: "files/\(release.id)/\(release.id)-\(release.version).so",
                                     sha256: hex(64), size: 200_000 + UInt64(release.version.utf8.count * 1_000),
                                     publisher: "2565D6BB70A228A0", manifest: manifest)
            modules[release.id, default: []].append(entry)
        }
        return try CatalogIndex(serial: 42, generated: "2026-11-29T00:00:00Z", modules: modules).json()
    }

    /// The releases the resolver chooses from, parsed as den parses an index's entries.
    func snapshot() throws -> CatalogSnapshot {
        CatalogSnapshot(try releases.map { release throws -> ModuleRelease in
            do { return try ModuleRelease(id: release.id, version: release.version, requires: release.requires) } catch {
                throw BenchError("synthetic catalog: \(error)")
            }
        })
    }
}
