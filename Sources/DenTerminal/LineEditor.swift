import CEditLine
import DenKit
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads the lines the user types at `den run`'s prompt. On a terminal, libedit gives line
/// editing (arrows, Ctrl-A/Ctrl-E, ...) and history (↑/↓, this session only); otherwise (a
/// pipe, a file) lines are read as they are.
package final class LineEditor {
    package let isInteractive: Bool

    /// - Parameter interactive: whether standard input and output are both a terminal; libedit
    ///   is used only then.
    package init(interactive: Bool = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1) {
        isInteractive = interactive
        if interactive { den_editline_setup() }
    }

    /// The next line, or nil at the end of input (Ctrl-D on an empty line).
    package func readLine(prompt: String) -> String? {
        guard isInteractive else { return Swift.readLine() }
        fflush(nil) // what was printed before the prompt shows before libedit redraws the line
        guard let raw = CEditLine.readline(prompt) else { return nil }
        defer { free(raw) }
        return String(cString: raw)
    }

    /// A password: read without echo on a terminal (nil when Ctrl-C gave it up), as a plain line
    /// otherwise; never kept in the history.
    package func readSecret(prompt: String, interrupts: InterruptForwarder) -> String? {
        guard isInteractive else { return Swift.readLine() }
        return HiddenInput.readLine(prompt: prompt, interrupts: interrupts)
    }

    /// Adds a line to the history (not blank ones, and not the same line twice in a row).
    package func remember(_ line: String) {
        guard isInteractive, !line.trimmingWhitespace().isEmpty, line != last else { return }
        last = line
        _ = add_history(line)
    }

    private var last: String?
}
