import Foundation

/// A running `den serve` for end-to-end tests: started with the given arguments and environment,
/// its standard output read until it prints the address it serves on. Stopped with SIGTERM by
/// `stop()` or when the object goes away.
package final class ServedDen: @unchecked Sendable {
    /// posix_spawn, not Foundation's Process (Spawn.swift says why).
    package let process: Spawned
    /// `http://127.0.0.1:<port>`, as den printed it; nil when it printed none within a minute.
    package private(set) var baseURL: String?
    /// What den printed before (and including) its address line, or `readyLine`.
    package private(set) var printed = ""

    /// `readyLine`: text den prints once it is ready beyond listening (e.g. `den dev`'s source
    /// watcher); the start waits for it too.
    package init(_ den: URL, arguments: [String], environment: [String: String] = [:], readyLine: String? = nil) throws {
        process = try Spawned(den, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        try? process.input.close()
        // Its log is read as it comes, so that den never waits on a full pipe (`logged`).
        let errors = process.errors, logged = self.logged
        Thread {
            while true {
                let chunk = errors.availableData
                if chunk.isEmpty { break }
                logged.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }.start()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let chunk = process.output.availableData
            if chunk.isEmpty { break }
            printed += String(decoding: chunk, as: UTF8.self)
            // The pages' address ("Den is serving on …"), not the metrics' ("serves its metrics on …").
            if let range = printed.range(of: #"serving on http://[0-9.]+:[0-9]+"#, options: .regularExpression) {
                baseURL = String(printed[range].dropFirst("serving on ".count))
                if readyLine.map(printed.contains) ?? true { break }
            }
        }
        // Keeps reading, so a den that prints a lot never blocks on a full pipe, and tests can
        // look at what it printed later.
        let handle = process.output, later = self.later
        Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                later.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }.start()
    }

    private let later = Collected()
    private let logged = Collected()

    /// What den wrote to standard error so far (its log; an isolated worker's too).
    package var log: String { logged.withLock { $0 } }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func withLock<T>(_ body: (inout String) -> T) -> T { lock.withLock { body(&text) } }
    }

    /// What den printed after `printed`, so far.
    package var printedSince: String { later.withLock { $0 } }

    /// The metrics address's port (`--metrics`), once den printed it (waited for up to 10 s:
    /// den starts its pages and its metrics side by side).
    package var metricsPort: Int? {
        let deadline = Date().addingTimeInterval(10)
        repeat {
            let text = printed + printedSince
            if let range = text.range(of: #"metrics on http://[0-9.]+:[0-9]+"#, options: .regularExpression) {
                return text[range].split(separator: ":").last.flatMap { Int($0) }
            }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return nil
    }

    /// The port in `baseURL`.
    package var port: Int? { baseURL.flatMap { $0.split(separator: ":").last.flatMap { Int($0) } } }

    /// SIGTERM, then waits for den to exit.
    package func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { stop() }
}
