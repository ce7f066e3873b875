import DenTestSupport
import Foundation
import Testing

/// The browser front-end as a person meets it: the built `den serve` with the bundled plugins,
/// driven by Debian's headless Chromium through selenium (Tests/Browser/walkthrough.py, installed
/// by Scripts/setup.sh). Screenshots of every step, at 1280 and 360 px, are kept in
/// `.build/browser-screenshots/` for a person to look at.
@Suite("The browser front-end in a real Chromium")
struct BrowserEndToEndTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("about → main → 100 USD is 89.08 EUR → info → back; register → add a jog → list → log out → jogs asks to log in")
    func walkthrough() throws {
        let temp = try TemporaryDirectory("den-browser")
        let server = try ServedDen(try BuildProducts.require(BuildProducts.den), arguments: ["serve", "--port", "0"], environment: [
            "DEN_CACHE_DIR": temp.path("cache").path, "DEN_DATA_DIR": temp.path("data").path,
            "XDG_DATA_HOME": temp.path("xdg").path, "DEN_PLUGIN_PATH": "",
        ])
        defer { server.stop() }
        let base = try #require(server.baseURL, "den serve printed no http:// address: \(server.printed)")
        #expect(base.hasPrefix("http://127.0.0.1:"), "it binds the loopback interface by default")

        let shots = Self.packageRoot.appendingPathComponent(".build/browser-screenshots")
        try? FileManager.default.removeItem(at: shots)
        let script = Self.packageRoot.appendingPathComponent("Tests/Browser/walkthrough.py")
        let run = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, base, shots.path],
                                        timeout: 240)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("browser walkthrough: all steps passed"))
        let pictures = (try? FileManager.default.contentsOfDirectory(atPath: shots.path)) ?? []
        #expect(pictures.contains { $0.hasPrefix("360px-") } && pictures.contains { $0.hasPrefix("1280px-") }, "\(pictures)")
    }
}
