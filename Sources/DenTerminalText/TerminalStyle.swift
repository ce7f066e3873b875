import DenHost
import DenKit
import DenSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Colour and emphasis for the terminal. On a colour terminal titles, headings and emphasis are
/// bold, banners and errors in colour, and action numbers cyan. Plain output (a pipe, `NO_COLOR`,
/// `TERM=dumb`) keeps text markers instead: `*emphasis*`, `(caption)`.
///
/// Styles are applied to whole lines after wrapping, so escape codes never count toward a line's
/// width. They are eight fixed SGR sequences (ECMA-48), written here rather than with a colour
/// library: Rainbow, used before, imports Foundation, which would load Foundation and ICU into
/// every `den` start (docs/PERFORMANCE.md).
package struct TerminalStyle: Sendable, Equatable {
    package var colour: Bool

    package init(colour: Bool) {
        self.colour = colour
    }

    package static let plain = TerminalStyle(colour: false)

    /// Colour when standard output is a terminal whose `TERM` is set and not `dumb`, and
    /// `NO_COLOR` is unset or empty (or `FORCE_COLOR` is set): the no-color.org convention.
    package static func detect(environment: [String: String] = ProcessEnvironment.current(),
                              outputIsTerminal: Bool = isatty(STDOUT_FILENO) == 1) -> TerminalStyle {
        func set(_ key: String) -> Bool { environment[key].map { !$0.isEmpty && $0 != "0" } ?? false }
        let wanted = set("FORCE_COLOR") || !set("NO_COLOR")
        let console = outputIsTerminal && environment["TERM"].map { $0.lowercased() != "dumb" } == true
        return TerminalStyle(colour: wanted && console)
    }

    package func title(_ text: String) -> String { styled(text, "1") }
    package func heading(_ text: String) -> String { styled(text, "1;4") }
    package func emphasis(_ text: String) -> String { styled(text, "1") }
    package func caption(_ text: String) -> String { styled(text, "2") }
    package func number(_ text: String) -> String { styled(text, "36;1") }
    package func quiet(_ text: String) -> String { styled(text, "2") }
    package func error(_ text: String) -> String { styled(text, "31") }
    package func notice(_ text: String) -> String { styled(text, "33") }

    package func banner(_ text: String, kind: Banner.Kind) -> String {
        switch kind {
        case .info: styled(text, "34")
        case .success: styled(text, "32")
        case .warning: styled(text, "33")
        case .error: styled(text, "31;1")
        }
    }

    /// `text` between "select graphic rendition" `codes` (1 bold, 2 dim, 4 underline, 31–36
    /// colours) and a reset; `text` itself as it is on plain output.
    private func styled(_ text: String, _ codes: String) -> String {
        colour ? "\u{1B}[\(codes)m\(text)\u{1B}[0m" : text
    }
}
