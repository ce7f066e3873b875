import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion with its output to /dev/null, as the process figures (3 and 9)
/// time `den` and the baselines: from just before `posix_spawn` to just after `waitpid`.
enum TimedSpawn {
    /// The exit status (128 + signal when killed) and the nanoseconds it took. An empty
    /// `environment` passes this process's own. With `output`, standard output and error go to
    /// that file (made anew) instead, for a caller that checks what the program said.
    static func run(_ path: String, _ arguments: [String], _ environment: [String] = [],
                    output: String? = nil) throws -> (status: Int32, nanoseconds: UInt64) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let output {
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = (environment.isEmpty ? ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" } : environment)
            .map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let start = nowNanoseconds()
        let error = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard error == 0 else { throw BenchError("cannot start \(path): \(String(cString: strerror(error)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let elapsed = nowNanoseconds() - start
        // WIFEXITED / WEXITSTATUS by hand (the macros are not imported).
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitStatus, elapsed)
    }
}
