import DenTestSupport
import Foundation
import Testing

/// A page in a real headless Chromium reloads itself after a hot swap and shows a refused
/// version's error as a banner (Tests/Browser/hotswap.py; Debian chromium + PyPI selenium, as
/// the walkthrough).
@Suite("Hot swap in a real Chromium")
struct HotSwapBrowserTests {
    @Test("the page reloads by itself with v2 and its count, then shows a broken v3's error")
    func pageRefreshes() throws {
        let temp = try TemporaryDirectory("den-browser-swap")
        let plugins = try temp.folder("plugins")
        let fixture = try SwapFixture()
        let plugin = try fixture.install([], into: plugins)
        let server = try ServedDen(try BuildProducts.require(BuildProducts.den), arguments: [
            "serve", "--watch", "--port", "0", "--no-default-modules", "--plugin-dir", plugins.path,
        ], environment: ["DEN_CACHE_DIR": temp.path("cache").path, "DEN_DATA_DIR": temp.path("data").path, "DEN_PLUGIN_PATH": ""])
        defer { server.stop() }
        let base = try #require(server.baseURL, "\(server.printed)")
        let shots = SwapFixture.packageRoot.appendingPathComponent(".build/browser-screenshots-hotswap")
        let script = SwapFixture.packageRoot.appendingPathComponent("Tests/Browser/hotswap.py")
        let run = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", script.path, base, shots.path, plugin.path,
            try fixture.library(["-DSWAP_VERSION=2"]).path, try fixture.library(["-DSWAP_VERSION=3", "-DBAD_ABI"]).path,
        ], timeout: 240)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("hot swap browser test: all steps passed"))
    }
}
