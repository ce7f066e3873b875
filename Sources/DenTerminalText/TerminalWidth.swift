import DenHost
import DenKit
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// How many columns the screen is drawn in: the terminal's real width, asked again before every
/// draw so a resized window is followed.
package enum TerminalWidth {
    /// For output that is not a terminal and says nothing (a pipe): the width scripts have seen.
    package static let fallback = 76

    /// The terminal's width (TIOCGWINSZ on `descriptor`), else `COLUMNS`, else `fallback`.
    package static func current(descriptor: Int32 = STDOUT_FILENO,
                               environment: [String: String] = ProcessEnvironment.current()) -> Int {
        resolve(windowColumns: windowColumns(descriptor), columnsVariable: environment["COLUMNS"])
    }

    /// The width when something says it (a terminal on `descriptor`, or `COLUMNS`); nil for a
    /// pipe nobody sized, whose reader (a log file, a script) wants whole lines.
    package static func stated(descriptor: Int32, environment: [String: String] = ProcessEnvironment.current()) -> Int? {
        if let columns = windowColumns(descriptor) { return columns }
        if let text = environment["COLUMNS"], let columns = Int(text.trimmingWhitespace()), columns > 0 { return columns }
        return nil
    }

    /// The rule, apart from the system calls: a real window size wins over `COLUMNS` (which a
    /// shell may have exported before the window was resized).
    static func resolve(windowColumns: Int?, columnsVariable: String?) -> Int {
        if let windowColumns, windowColumns > 0 { return windowColumns }
        if let text = columnsVariable, let columns = Int(text.trimmingWhitespace()), columns > 0 { return columns }
        return fallback
    }

    private static func windowColumns(_ descriptor: Int32) -> Int? {
        guard isatty(descriptor) == 1 else { return nil }
        var size = winsize()
        let status = withUnsafeMutablePointer(to: &size) { ioctl(descriptor, UInt(TIOCGWINSZ), $0) }
        return status == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
    }
}
