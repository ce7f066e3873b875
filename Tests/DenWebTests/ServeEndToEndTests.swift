import DenTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("den serve, the real binary")
struct ServeEndToEndTests {
    @Test("den serve --port 0 prints the address it serves on, answers /about over a socket, and stops on SIGTERM")
    func serveAbout() async throws {
        let den = try BuildProducts.require(BuildProducts.den)
        _ = try BuildProducts.require(BuildProducts.library("AboutModule"))
        let temp = try TemporaryDirectory("den-serve")
        let process = Process()
        process.executableURL = den
        process.arguments = ["serve", "--port", "0", "--plugins", "about",
                             "--data-dir", temp.path("data").path, "--cache-dir", temp.path("cache").path]
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

        process.terminate() // SIGTERM: a clean stop
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}
