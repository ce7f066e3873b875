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
        let server = Process()
        server.executableURL = try BuildProducts.require(BuildProducts.den)
        server.arguments = ["serve", "--port", "0"]
        var environment = ProcessInfo.processInfo.environment
        environment["DEN_CACHE_DIR"] = temp.path("cache").path
        environment["DEN_DATA_DIR"] = temp.path("data").path
        environment["XDG_DATA_HOME"] = temp.path("xdg").path
        environment["DEN_PLUGIN_PATH"] = ""
        server.environment = environment
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let base = try #require(Self.address(from: output.fileHandleForReading), "den serve printed no http:// address")
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

    /// The `http://host:port` den serve prints when it is ready.
    static func address(from handle: FileHandle) -> String? {
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let data = handle.availableData
            if data.isEmpty { return nil }
            text += String(decoding: data, as: UTF8.self)
            if let range = text.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression) { return String(text[range]) }
        }
        return nil
    }
}
