import DenTestSupport
import Foundation
import Testing

/// `den modules install <id>`'s progress line, read from a real terminal's bytes while nginx
/// serves the catalog slowly (docs/CATALOG.md, "Installing by name").
@Suite("Installing by name: a progress line in bytes on a terminal")
struct CatalogInstallProgressEndToEndTests {
    typealias Fixture = CatalogSourcesEndToEndTests.Fixture

    /// The sizes the signed index gives, by module id.
    func sizes(_ fixture: Fixture) throws -> [String: Int64] {
        let index = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.folder.appendingPathComponent("index.json"))) as? [String: Any])
        let modules = try #require(index["modules"] as? [String: [[String: Any]]])
        return modules.compactMapValues { ($0.first?["size"] as? NSNumber)?.int64Value }
    }

    /// docs/CATALOG.md's rule, apart from den's code: binary units, one decimal, rounded down.
    func shown(_ count: Int64) -> String {
        for (name, unit) in [("GiB", Int64(1) << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] where count >= unit {
            return "\(count / unit).\(count % unit * 10 / unit) \(name)"
        }
        return "\(count) B"
    }

    @Test("permprobe brings main: each file's bytes against the index's size as they arrive, the file count and the plan's bytes; each file's last line whole, then cleared")
    func bytesOnATerminal() throws {
        let fixture = try Fixture(modules: ["MainModule", "DenFixturePermProbeRequires"])
        let sizes = try sizes(fixture)
        let main = try #require(sizes["main"]), permprobe = try #require(sizes["permprobe"])
        // About two seconds for main's file, so the line is redrawn while it arrives.
        let nginx = try NginxProxy(serving: fixture.folder, under: "/catalog/", bytesPerSecond: Int(max(main / 2, 64 << 10)))
        #expect(try fixture.run(["sources", "add", "http://127.0.0.1:\(nginx.port)/catalog"]).status == 0)

        let install = try fixture.den.runOnTerminal(["modules", "install", "permprobe", "--yes"], environment: CatalogUpdateEndToEndTests.signed)
        #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
        #expect(install.stdout.contains("install permprobe 3.0.0: Installed permprobe 3.0.0"), "\(install.stdout)")
        let drawings = install.stderr.components(separatedBy: "\r\u{1B}[2K")
        let fetching = drawings.filter { $0.hasPrefix("fetching ") }
        let mainLines = fetching.filter { $0.hasPrefix("fetching main 1.0.0  ") }
        let probeLines = fetching.filter { $0.hasPrefix("fetching permprobe 3.0.0  ") }

        let total = main + permprobe
        #expect(mainLines.first?.hasPrefix("fetching main 1.0.0  0 B of \(shown(main)) · file 1 of 2, 0 B of \(shown(total))") == true,
                "dependencies first, from nothing: \(fetching)")
        let between = mainLines.filter { !$0.hasPrefix("fetching main 1.0.0  0 B ") && !$0.hasPrefix("fetching main 1.0.0  \(shown(main)) ") }
        #expect(between.count >= 2, "redrawn while the file arrives, not only at its ends: \(mainLines)")
        #expect(mainLines.last?.hasPrefix("fetching main 1.0.0  \(shown(main)) of \(shown(main)) · file 1 of 2, \(shown(main)) of \(shown(total))") == true,
                "\(mainLines)")
        #expect(probeLines.last?.hasPrefix("fetching permprobe 3.0.0  \(shown(permprobe)) of \(shown(permprobe)) · file 2 of 2, \(shown(total)) of \(shown(total))") == true,
                "the last line reaches the whole plan: \(probeLines)")
        #expect(fetching.last == probeLines.last)
        #expect(fetching.allSatisfy { $0.count < 120 }, "fitted to the terminal's width")
        let afterLast = try #require(drawings.last)
        #expect(!afterLast.hasPrefix("fetching"), "the line is cleared before the result: \(afterLast)")

        // Piped, as a script runs it: not a byte of progress.
        try FileManager.default.removeItem(at: fixture.den.temp.path("xdg-data/den/modules"))
        let piped = try fixture.run(["install", "permprobe", "--yes"], environment: CatalogUpdateEndToEndTests.signed)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(!piped.stderr.contains("fetching") && !piped.stderr.contains("\u{1B}"), "\(piped.stderr)")
    }
}
