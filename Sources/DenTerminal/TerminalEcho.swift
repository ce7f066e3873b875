import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Echo off while a secret is typed (Enter still moves to a new line), restored however the
/// read ends: the one place that touches the terminal's echo, for the session and `den users`.
package enum TerminalEcho {
    /// Runs `body` with echo off on standard input; when it is not a terminal, just runs it.
    package static func hidden<T>(_ body: () -> T) -> T {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return body() }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        return body()
    }
}
