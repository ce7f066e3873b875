import DenTerminalText
import DenHost

extension TerminalSession {
    /// The top screen again, as the session has it now: after a hot swap the new version drew
    /// it. Values typed with `set` but not yet sent stay, like on any redraw.
    package func redraw(after message: String) -> Output {
        guard let current = session.current else { return Output(text: TerminalText.sanitize(message), quit: false) }
        view = current
        return Output(text: "(\(TerminalText.sanitize(message)))\n\n" + draw(), quit: false)
    }
}
