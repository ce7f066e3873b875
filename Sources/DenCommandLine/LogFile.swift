import DenSupport
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where log lines go. Standard error by default (`den serve`, scripts, systemd's journal); an
/// interactive `den run` sends them to a file instead, so that audit and notice lines never land
/// between the user's prompts (README, "Logs").
package enum LogFile {
    private static let target = Atomic<Int32>(STDERR_FILENO)
    private static let problems = Atomic<Int>(0)

    /// The descriptor log lines are written to now.
    package static var descriptor: Int32 { target.load(ordering: .acquiring) }

    /// Warnings and errors logged so far (the terminal says how many went to the file).
    package static var problemCount: Int { problems.load(ordering: .relaxed) }

    static func countProblem() { problems.add(1, ordering: .relaxed) }

    /// `DEN_LOG_FILE`, else `$XDG_STATE_HOME/den/den.log`, else `~/.local/state/den/den.log`.
    package static func defaultPath(environment: [String: String]) -> String {
        if let path = environment["DEN_LOG_FILE"], !path.isEmpty { return path }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/den/den.log" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return home + "/.local/state/den/den.log"
    }

    /// True when logs should go to a file: standard input and standard error are a terminal
    /// (someone is using the screen) and systemd is not collecting standard error.
    package static func suitsTerminal(environment: [String: String]) -> Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 && (environment["JOURNAL_STREAM"] ?? "").isEmpty
    }

    /// Sends log lines to `path` (appended, created 0600 with its folder); nil when done, else
    /// why not (logs then stay on standard error).
    package static func redirect(to path: String) -> String? {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]) }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        target.store(fd, ordering: .releasing)
        return nil
    }
}
