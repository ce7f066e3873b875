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
        var environment = ProcessInfo.processInfo.environment
        environment["DEN_PLUGIN_PATH"] = ""
        let server = try ServedDen(den, arguments: Self.arguments(temp, port: "0"), environment: environment)
        defer { server.stop() }

        // The first line names the real port.
        let line = server.printed.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.hasPrefix("Den is serving on http://127.0.0.1:"), "\(server.printed)")
        let port = try #require(server.port)
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

        server.stop() // SIGTERM: a clean stop
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
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
