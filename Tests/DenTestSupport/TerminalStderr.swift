import CDenTestSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program with its standard error on a pseudo-terminal, for output den draws only on a
/// terminal (`ProgressLine`): unlike a tmux pane's screen, the result keeps every byte written,
/// each redraw ("\r", ESC[2K) included. Standard input and output are pipes, as ProcessRunner's.
package enum TerminalStderr {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// `stderr` in the result is everything written to the terminal, `columns` wide (the line
    /// discipline turns each "\n" into "\r\n").
    package static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                            columns: Int = 120, timeout: TimeInterval = 60) throws -> ProcessResult {
        var name = [CChar](repeating: 0, count: 128)
        let master = den_test_open_terminal(UInt16(columns), &name, name.count)
        guard master >= 0 else { throw Failure(description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))") }
        defer { close(master) }
        let terminal = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Held open until the child has ended, so reading the master waits for output instead of
        // failing (EIO) while no terminal end is open yet.
        let held = open(terminal, O_RDWR | O_NOCTTY)
        guard held >= 0 else { throw Failure(description: "cannot open \(terminal): \(String(cString: strerror(errno)))") }
        var heldOpen = true
        defer { if heldOpen { close(held) } }

        let written = Collected()
        let reading = DispatchGroup()
        reading.enter()
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count > 0 { written.append(buffer[0..<count]) } else if count < 0 && errno == EINTR { continue } else { break }
            }
            reading.leave()
        }.start()

        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        // The shell opens the terminal as fd 2 and becomes the program (Spawned closes every
        // other descriptor, so the terminal goes by name).
        let process = try Spawned(URL(fileURLWithPath: "/bin/sh"), ["-c", "tty=$1; shift; exec \"$@\" 2>\"$tty\"", "sh", terminal, executable.path] + arguments,
                                  environment: merged)
        try process.input.close()
        let pipes = DispatchGroup()
        nonisolated(unsafe) var output = Data()
        pipes.enter()
        DispatchQueue.global().async { output = process.output.readDataToEndOfFile(); pipes.leave() }
        pipes.enter()
        DispatchQueue.global().async { _ = process.errors.readDataToEndOfFile(); pipes.leave() }
        if pipes.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw ProcessTimeout(command: ([executable.path] + arguments).joined(separator: " "), seconds: timeout)
        }
        let status = process.wait()
        close(held)
        heldOpen = false
        // With every terminal end closed, the master reads what is left, then EIO.
        _ = reading.wait(timeout: .now() + 5)
        return ProcessResult(status: status, stdout: String(decoding: output, as: UTF8.self), stderr: String(decoding: written.data, as: UTF8.self))
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data()
        func append(_ chunk: ArraySlice<UInt8>) { lock.withLock { bytes.append(contentsOf: chunk) } }
        var data: Data { lock.withLock { bytes } }
    }
}
