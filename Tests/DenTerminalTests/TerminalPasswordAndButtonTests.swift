import DenHost
import DenKit
@testable import DenTerminal
@testable import DenTerminalText
import DenTestSupport
import Testing

@Suite("Passwords at the terminal")
struct TerminalPasswordTests {
    let temp: TemporaryDirectory
    let runtime: DenRuntime
    let terminal: TerminalSession

    init() throws {
        (temp, runtime) = try InProcessModule.formRuntime()
        terminal = TerminalSession(session: runtime.makeSession())
        _ = terminal.start(at: "form")
    }

    @Test("`set <password>` alone asks for the value to be read hidden; it then reaches the module")
    func hiddenEntry() {
        let asked = terminal.handle(line: "set pin")
        #expect(asked.secretPrompt == "PIN (not shown): ")
        #expect(asked.text.isEmpty)

        let entered = terminal.enterSecret("1234")
        #expect(entered.text.contains("PIN [pin]: ****"))
        #expect(!entered.text.contains("1234"))
        #expect(terminal.handle(line: "send").text.contains("pin=1234"))
    }

    @Test("giving up the hidden entry leaves the field as it was")
    func cancelled() {
        _ = terminal.handle(line: "set pin")
        #expect(terminal.enterSecret(nil).text == "(pin left unchanged)")
        #expect(terminal.handle(line: "send").text.contains("name=Ada pin=\n"))
    }

    @Test("`<password>=` still empties the field, and another field's empty set asks nothing", arguments: ["pin=", "set name"])
    func noPrompt(line: String) {
        #expect(terminal.handle(line: line).secretPrompt == nil)
    }

    @Test("a line carrying a password is never kept in the history", arguments: [
        ("set pin 1234", false), ("pin=1234", false), ("PIN=1", false), ("set pin", true), ("set name Ada", true), ("send", true),
        ("set password Leak-Check-88", false), // no such field here: it may be the last screen's password
    ])
    func history(line: String, remembered: Bool) {
        #expect(terminal.mayRemember(line) == remembered)
    }

    @Test("keys typed during a wait are quoted back only when they are plainly commands", arguments: [
        ("2", true), ("send", true), ("go about", true), ("set name Bea", true),
        ("Sesame-Opens-42", false), ("set pin 1234", false), ("send\nhunter2", false),
    ])
    func typedAhead(typed: String, quoted: Bool) {
        let text = terminal.ignoredTyping(typed).replacingOccurrences(of: "\n", with: " ")
        #expect(text.contains(typed.replacingOccurrences(of: "\n", with: " ")) == quoted, "\(text)")
        #expect(text.contains("not shown") != quoted)
    }

    @Test("a script's transcript shows a line carrying a password without the password", arguments: [
        ("set pin 1234", "set pin (hidden)"), ("pin=1234", "set pin (hidden)"), ("set name Ada", "set name Ada"), ("send", "send"),
        ("set password Leak-Check-88", "set password (hidden)"),
    ])
    func transcript(line: String, shown: String) {
        #expect(terminal.echo(of: line) == shown)
    }
}

/// A screen whose button labels collide with commands.
final class CollidingButtonsInstance: ModuleInstance {
    var pressed = "nothing"

    func handle(_ event: ModuleEvent) throws -> ModuleReply {
        if case .action(let id, _) = event { pressed = id }
        return ModuleReply(screen: Screen(title: "Buttons", elements: [
            .text("pressed: \(pressed)"),
            .button(Button(id: "go", label: "Go", role: .primary)),
            .button(Button(id: "undo", label: "Back")),
            .button(Button(id: "open", label: "Open first note")),
            .link(Link(label: "Weekly report", route: "buttons/report")),
        ]))
    }
}

@Suite("Buttons and commands never collide")
struct TerminalButtonTests {
    let temp: TemporaryDirectory
    let runtime: DenRuntime
    let terminal: TerminalSession

    init() throws {
        temp = try TemporaryDirectory("den-terminal-buttons")
        runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [], bundledDirectory: nil, cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data")))
        try #require(runtime.installInProcess(ModuleDefinition(id: "buttons", version: "1.0.0", summary: "Buttons", routes: [
            RouteDefinition("buttons") { _ in CollidingButtonsInstance() },
            RouteDefinition("buttons/report") { _ in CollidingButtonsInstance() },
        ])).error == nil)
        terminal = TerminalSession(session: runtime.makeSession())
    }

    @Test("a button whose label is a command word says how to press it")
    func hint() {
        let text = terminal.start(at: "buttons").text
        #expect(text.contains("(Go is a command word: press this button with 1 or `press go`)"))
        #expect(text.contains("(Back is a command word: press this button with 2 or `press back`)"))
        #expect(!text.contains("Open first note is a command word"))
    }

    @Test("press <label|id> and the number press the button", arguments: [
        ("press go", "go"), ("press Go", "go"), ("1", "go"), ("press back", "undo"), ("press undo", "undo"), ("2", "undo"),
        ("Open first note", "open"), ("press open first note", "open"), ("open", "open"),
    ])
    func pressed(line: String, id: String) {
        _ = terminal.start(at: "buttons")
        #expect(terminal.handle(line: line).text.contains("pressed: \(id)"))
    }

    @Test("a link's label follows the link, pressed or typed bare", arguments: ["press weekly report", "Weekly report", "4"])
    func linkByLabel(line: String) {
        _ = terminal.start(at: "buttons")
        #expect(terminal.handle(line: line).text.contains("— buttons/report ·"), "the link was followed: the footer names its route")
    }

    @Test("the command wins over a bare label: `go` asks for a route and points at the button")
    func goIsACommand() {
        _ = terminal.start(at: "buttons")
        let text = terminal.handle(line: "go").text.replacingOccurrences(of: "\n", with: " ")
        #expect(text.contains("Say which route to open"))
        #expect(text.contains("To press the button Go, type 1 or `press go`."))
        #expect(terminal.handle(line: "back").text.contains("nothing to go back to"), "`back` navigates, it does not press Back")
    }

    @Test("press names what exists when nothing matches")
    func pressUnknown() {
        _ = terminal.start(at: "buttons")
        #expect(terminal.handle(line: "press nothing").text.replacingOccurrences(of: "\n", with: " ").hasPrefix(
            "There is no button 'nothing'. Buttons: 1 Go, 2 Back, 3 Open first note. Links: 4 Weekly report."))
        #expect(terminal.handle(line: "press").text.hasPrefix("Say which button to press."))
    }
}
