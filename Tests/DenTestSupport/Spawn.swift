import CDenTestSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its standard streams on pipes. The tests start
/// thousands of processes: Foundation's `Process.run` on Linux (Swift 6.3.1) reads past glibc's
/// directory buffer while it lists `/proc/self/fd`, and now and then that kills the whole test
/// process with SIGSEGV (swiftlang/swift-corelibs-foundation#5472). This does not list it: the
/// child closes every other descriptor with `closefrom` (CDenTestSpawn).
package final class Spawned: @unchecked Sendable {
    package let pid: pid_t
    /// Our ends of the child's standard input, output and error.
    package let input: FileHandle
    package let output: FileHandle
    package let errors: FileHandle
    private let lock = NSLock()
    private var status: Int32?
    private var signaled = false

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package init(_ executable: URL, _ arguments: [String], environment: [String: String]) throws {
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child = pid_t()
        var fds: [Int32] = [-1, -1, -1]
        let result = den_test_spawn(executable.path, argv, envp, &child, &fds)
        guard result == 0 else {
            throw Failure(description: "posix_spawn \(executable.path): \(String(cString: strerror(result)))")
        }
        pid = child
        input = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
        output = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
        errors = FileHandle(fileDescriptor: fds[2], closeOnDealloc: true)
    }

    /// Waits for the child; its exit status, or the signal that ended it (as Process's
    /// `terminationStatus` says it).
    @discardableResult
    package func wait() -> Int32 {
        if let status = lock.withLock({ status }) { return status }
        var raw: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &raw, 0) } while reaped == -1 && errno == EINTR
        if reaped != pid {
            // Another caller reaped it: its status comes in a moment.
            while true {
                if let status = lock.withLock({ status }) { return status }
                usleep(1000)
            }
        }
        return lock.withLock { record(raw) }
    }

    /// Under the lock: the exit status or signal of a reaped child.
    private func record(_ raw: Int32) -> Int32 {
        if let status { return status }
        let signal = raw & 0x7f
        signaled = signal != 0
        let result = signal == 0 ? (raw >> 8) & 0xff : signal
        status = result
        return result
    }

    // Process's names, for the tests that used it.
    package var processIdentifier: pid_t { pid }
    package func waitUntilExit() { wait() }
    package var terminationStatus: Int32 { wait() }
    package enum TerminationReason: Sendable { case exit, uncaughtSignal }
    package var terminationReason: TerminationReason {
        wait()
        return lock.withLock { signaled ? .uncaughtSignal : .exit }
    }

    /// True until the child has ended (reaped here when it has).
    package var isRunning: Bool {
        lock.withLock {
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
            _ = record(raw)
            return false
        }
    }

    package func terminate() {
        if lock.withLock({ status }) == nil { kill(pid, SIGTERM) }
    }

    /// Writes `data` to the child's standard input. Foundation's `FileHandle.write` traps on any
    /// error, an interrupted call or a child that has already exited (a broken pipe) included;
    /// this retries the first and returns false on the rest.
    @discardableResult
    package func send(_ data: Data) -> Bool {
        let descriptor = input.fileDescriptor
        return data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// SIGINT, as Ctrl-C sends.
    package func interrupt() {
        if lock.withLock({ status }) == nil { kill(pid, SIGINT) }
    }
}
