import DenKit
import FoundationEssentials

/// One line the user typed at `den run`'s prompt.
///
/// Buttons and commands never collide: a number or `press <id|label>` always means a button, and
/// a line whose first word is a command (`go`, `set`, `press`, `back`, `help`, `quit` and their
/// short forms) is always that command, so a button labelled "Go" or "Back" is pressed by its
/// number or with `press go`. Only a line that starts with no command word is taken for a
/// button's id or label (`close`, `Visit the project site`).
enum TerminalCommand: Equatable {
    case choose(Int)
    case set(field: String, value: String)
    case go(String)
    case back
    case help
    /// `menu` lists the app's navigation; `menu <number|title>` opens an entry of it.
    case menu(String)
    case logout
    case quit
    case redraw
    /// `press <id|label>`: a button, whatever its label is.
    case press(String)
    /// A bare button id or label, e.g. `close`.
    case named(String)

    /// The first words that are commands; a button label starting with one needs `press` or its number.
    static let commandWords: Set<String> = ["q", "quit", "exit", "h", "help", "?", "b", "back", "go", "set", "press", "m", "menu", "logout"]

    init(_ line: String) {
        let trimmed = line.trimmingWhitespace()
        let parts = trimmed.split(separator: " ", maxSplits: 1).map(String.init)
        let word = parts.first?.lowercased() ?? ""
        let rest = parts.count > 1 ? parts[1].trimmingWhitespace() : ""
        switch word {
        case "": self = .redraw
        case "q", "quit", "exit": self = .quit
        case "h", "help", "?": self = .help
        case "b", "back": self = .back
        case "m", "menu": self = .menu(rest)
        case "logout": self = .logout
        case "go": self = .go(rest)
        case "press": self = .press(rest)
        case "set":
            let pieces = rest.split(separator: " ", maxSplits: 1).map(String.init)
            self = .set(field: pieces.first ?? "", value: pieces.count > 1 ? pieces[1] : "")
        default:
            if let number = Int(trimmed) {
                self = .choose(number)
            } else if let equals = trimmed.firstIndex(of: "="), !trimmed[..<equals].contains(" ") {
                self = .set(field: String(trimmed[..<equals]), value: String(trimmed[trimmed.index(after: equals)...]))
            } else {
                self = .named(trimmed)
            }
        }
    }

    /// True when `label` cannot be pressed by typing it: it would be read as a command.
    static func isShadowed(_ label: String) -> Bool {
        let trimmed = label.trimmingWhitespace()
        return switch TerminalCommand(trimmed) {
        case .named: false
        default: true
        }
    }

    static let helpText = """
    Commands:
      <number>             press the numbered button or follow the numbered link
      press <button>       press a button by its id or label, e.g. press go
      <button>             the same, unless the label starts with a command word
                           (a button labelled Go or Back: its number, or press)
      set <field> <value>  fill in a field (also <field>=<value>); may be empty
      set <password>       type a password field's value without it being shown
      go <route>           open a route, e.g. go about
      menu                 list the app's menu (modules' screens, account)
      menu <entry>         open a menu entry by its number or title, e.g. menu 1
      logout               log out
      back                 go back one screen
      help                 show this list
      quit                 leave (end of input and Ctrl-D do too)
    Keys: ←/→ move in the line, ↑/↓ recall earlier lines, Ctrl-A/Ctrl-E go to
    the start/end of the line. While den waits for a module, Ctrl-C gives up
    the wait (den keeps running); at the prompt, Ctrl-C ends den.
    """
}
