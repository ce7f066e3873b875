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
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        process.environment = merged
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        // Read both pipes before waiting so a chatty child cannot block on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw ProcessTimeout(command: ([executable.path] + arguments).joined(separator: " "), seconds: timeout)
        }
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }
}

package struct ProcessTimeout: Error, CustomStringConvertible {
    package var command: String
    package var seconds: TimeInterval
    package var description: String { "\(command) did not finish within \(seconds) s" }
}
