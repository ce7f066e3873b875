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
    private let process: Spawned

    static var scriptURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent() // DenTestSupport
            .deletingLastPathComponent() // Tests
            .appendingPathComponent("Fixtures/stub_http_server.py")
    }

    package init(ecbFile: URL? = nil, filesDirectory: URL? = nil) throws {
        var arguments = ["python3", Self.scriptURL.path, "--lifetime", "120"]
        if let ecbFile { arguments += ["--ecb", ecbFile.path] }
        if let filesDirectory { arguments += ["--files", filesDirectory.path] }
        // posix_spawn, not Foundation's Process (Spawn.swift says why).
        let process = try Spawned(URL(fileURLWithPath: "/usr/bin/env"), arguments, environment: ProcessInfo.processInfo.environment)

        // The first line on stdout is the port.
        var line = Data()
        let reader = process.output
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text) else {
            process.terminate()
            process.wait()
            let message = String(decoding: process.errors.readDataToEndOfFile(), as: UTF8.self)
            throw StubServerError("the stub HTTP server did not start (is python3 installed?): \(text) \(message)")
        }
        self.port = port
        self.process = process
    }

    package func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Stops the server: closing its stdin makes it exit; SIGTERM, then SIGKILL, if it lingers.
    package func stop() {
        try? process.input.close()
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.pid, SIGKILL)
            process.wait()
        }
    }

    deinit { stop() }
}
