import DenTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("den serve, the real binary")
struct ServeEndToEndTests {
    static func arguments(_ temp: TemporaryDirectory, port: String) -> [String] {
        ["serve", "--port", port, "--plugins", "about", "--data-dir", temp.path("data").path, "--cache-dir", temp.path("cache").path]
    }

    @Test("den serve --port 0 prints the address it serves on, answers /about over a socket, and stops on SIGTERM")
    func serveAbout() async throws {
        let den = try BuildProducts.require(BuildProducts.den)
        _ = try BuildProducts.require(BuildProducts.library("AboutModule"))
        let temp = try TemporaryDirectory("den-serve")
        let process = Process()
        process.executableURL = den
        process.arguments = Self.arguments(temp, port: "0")
        var environment = ProcessInfo.processInfo.environment
        environment["DEN_PLUGIN_PATH"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The first line names the real port.
        var text = ""
        let reader = output.fileHandleForReading
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("\n"), Date() < deadline {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        let prefix = "Den is serving on http://127.0.0.1:"
        #expect(line.hasPrefix(prefix), "\(text)")
        let port = try #require(Int(line.dropFirst(prefix.count)))
        #expect(port > 0)

        let url = try #require(URL(string: "http://127.0.0.1:\(port)/about"))
        let (data, response) = try await URLSession.shared.data(from: url)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("About Den"))
        #expect(http.value(forHTTPHeaderField: "Set-Cookie")?.contains("den_session=") == true)

        // A second den on the same port says so and exits 1.
        let second = try ProcessRunner.run(den, Self.arguments(temp, port: String(port)), timeout: 60)
        #expect(second.status == 1)
        #expect(second.stderr.contains("could not listen on 127.0.0.1:\(port)"), "\(second.stderr)")
        #expect(second.stderr.contains("--port"))

        process.terminate() // SIGTERM: a clean stop
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    @Test("bad options are usage errors that say what is allowed")
    func badOptions() throws {
        let den = try BuildProducts.require(BuildProducts.den)
        let temp = try TemporaryDirectory("den-serve")
        let result = try ProcessRunner.run(den, Self.arguments(temp, port: "70000"), timeout: 60)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--port 70000 is not a port"))
        let sessions = try ProcessRunner.run(den, Self.arguments(temp, port: "0") + ["--session-minutes", "0"], timeout: 60)
        #expect(sessions.status == 64)
        #expect(sessions.stderr.contains("--session-minutes 0 must be 1 to 10080"))
    }
}
