import DenSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

package struct StubServerError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// `Tests/Fixtures/stub_http_server.py`, started for one test and stopped by `stop()` (or when
/// this object goes away: closing its stdin makes the server exit).
package final class StubHTTPServer {
    package let port: Int
    private let process: Process
    private let input: Pipe

    static var scriptURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent() // DenTestSupport
            .deletingLastPathComponent() // Tests
            .appendingPathComponent("Fixtures/stub_http_server.py")
    }

    package init(ecbFile: URL? = nil, filesDirectory: URL? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", Self.scriptURL.path, "--lifetime", "120"]
        if let ecbFile { arguments += ["--ecb", ecbFile.path] }
        if let filesDirectory { arguments += ["--files", filesDirectory.path] }
        process.arguments = arguments
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()

        // The first line on stdout is the port.
        var line = Data()
        let reader = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text) else {
            process.terminate()
            process.waitUntilExit()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw StubServerError("the stub HTTP server did not start (is python3 installed?): \(text) \(message)")
        }
        self.port = port
        self.process = process
        self.input = input
    }

    package func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Stops the server: closing its stdin makes it exit; SIGTERM, then SIGKILL, if it lingers.
    package func stop() {
        try? input.fileHandleForWriting.close()
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    deinit { stop() }
}
