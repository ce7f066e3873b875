import DenKit
import Foundation
@preconcurrency import Rainbow

/// Colour and emphasis for the terminal. On a colour terminal Rainbow draws titles, headings and
/// emphasis in bold, banners and errors in colour, and action numbers in cyan. Plain output (a
/// pipe, `NO_COLOR`, `TERM=dumb`) keeps text markers instead: `*emphasis*`, `(caption)`.
///
/// Styles are applied to whole lines after wrapping, so escape codes never count toward a line's
/// width.
public struct TerminalStyle: Sendable, Equatable {
    public var colour: Bool

    public init(colour: Bool) {
        self.colour = colour
    }

    public static let plain = TerminalStyle(colour: false)

    /// Colour exactly when Rainbow itself colours (its rules, re-stated because Swift 6 refuses to
    /// read Rainbow's global switches): standard output is a terminal whose `TERM` is set and not
    /// `dumb`, and `NO_COLOR` is unset or empty (or `FORCE_COLOR` is set).
    public static func detect(environment: [String: String] = ProcessInfo.processInfo.environment,
                              outputIsTerminal: Bool = isatty(STDOUT_FILENO) == 1) -> TerminalStyle {
        func set(_ key: String) -> Bool { environment[key].map { !$0.isEmpty && $0 != "0" } ?? false }
        let wanted = set("FORCE_COLOR") || !set("NO_COLOR")
        let console = outputIsTerminal && environment["TERM"].map { $0.lowercased() != "dumb" } == true
        return TerminalStyle(colour: wanted && console)
    }

    func title(_ text: String) -> String { colour ? text.bold : text }
    func heading(_ text: String) -> String { colour ? text.bold.underline : text }
    func emphasis(_ text: String) -> String { colour ? text.bold : text }
    func caption(_ text: String) -> String { colour ? text.dim : text }
    func number(_ text: String) -> String { colour ? text.cyan.bold : text }
    func quiet(_ text: String) -> String { colour ? text.dim : text }
    func error(_ text: String) -> String { colour ? text.red : text }
    func notice(_ text: String) -> String { colour ? text.yellow : text }

    func banner(_ text: String, kind: Banner.Kind) -> String {
        guard colour else { return text }
        return switch kind {
        case .info: text.blue
        case .success: text.green
        case .warning: text.yellow
        case .error: text.red.bold
        }
    }
}
