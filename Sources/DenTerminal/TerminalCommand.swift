import Foundation

/// One line the user typed at `den run`'s prompt.
enum TerminalCommand: Equatable {
    case choose(Int)
    case set(field: String, value: String)
    case go(String)
    case back
    case help
    case quit
    case redraw
    /// A button id or label, e.g. `close`.
    case named(String)

    init(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: " ", maxSplits: 1).map(String.init)
        let word = parts.first?.lowercased() ?? ""
        let rest = parts.count > 1 ? parts[1] : ""
        switch word {
        case "": self = .redraw
        case "q", "quit", "exit": self = .quit
        case "h", "help", "?": self = .help
        case "b", "back": self = .back
        case "go", "open": self = .go(rest.trimmingCharacters(in: .whitespaces))
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

    static let helpText = """
    Commands:
      <number>             press the numbered button or follow the numbered link
      set <field> <value>  fill in a field (also: <field>=<value>); the value may be empty
      <button>             press a button by its id or label, e.g. close
      go <route>           open a route, e.g. go about
      back                 go back one screen
      help                 show this list
      quit                 leave (end of input does too)
    """
}
