import Foundation

/// Runs a program to completion and captures what it printed; for end-to-end tests of `den`.
package struct ProcessResult: Sendable {
    package var status: Int32
    package var stdout: String
    package var stderr: String
}

package enum ProcessRunner {
    package static func run(_ executable: URL, _ arguments: [String], input: String? = nil,
                           environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> ProcessResult {
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        // posix_spawn, not Foundation's Process (Spawn.swift says why).
        let process = try Spawned(executable, arguments, environment: merged)
        // Write, and read both pipes, at once: a chatty child cannot block on a full pipe, nor a
        // child that answers before it has read all its input.
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            if let input { process.send(Data(input.utf8)) } // a child that exits without reading it is no error here
            try? process.input.close()
            group.leave()
        }
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = process.output.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = process.errors.readDataToEndOfFile(); group.leave() }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw ProcessTimeout(command: ([executable.path] + arguments).joined(separator: " "), seconds: timeout)
        }
        let status = process.wait()
        return ProcessResult(status: status, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }
}

package struct ProcessTimeout: Error, CustomStringConvertible {
    package var command: String
    package var seconds: TimeInterval
    package var description: String { "\(command) did not finish within \(seconds) s" }
}
