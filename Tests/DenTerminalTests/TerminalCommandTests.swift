@testable import DenTerminal
@testable import DenTerminalText
import Testing

@Suite("TerminalCommand parsing")
struct TerminalCommandTests {
    @Test("a number chooses that action", arguments: [("1", 1), ("12", 12), ("  3  ", 3), ("0", 0), ("-2", -2)])
    func numbers(line: String, number: Int) {
        #expect(TerminalCommand(line) == .choose(number))
    }

    @Test("set <field> <value> fills a field; the value keeps its spaces and may be empty", arguments: [
        ("set amount 12.5", TerminalCommand.set(field: "amount", value: "12.5")),
        ("set note hello big world", .set(field: "note", value: "hello big world")),
        ("set amount", .set(field: "amount", value: "")),
        ("SET From usd", .set(field: "From", value: "usd")),
        ("set", .set(field: "", value: "")),
    ])
    func setCommand(line: String, expected: TerminalCommand) {
        #expect(TerminalCommand(line) == expected)
    }

    @Test("field=value is a shorthand for set", arguments: [
        ("amount=12.5", TerminalCommand.set(field: "amount", value: "12.5")),
        ("amount=", .set(field: "amount", value: "")),
        ("note=a=b c", .set(field: "note", value: "a=b c")),
    ])
    func equalsShorthand(line: String, expected: TerminalCommand) {
        #expect(TerminalCommand(line) == expected)
    }

    @Test("go names a route", arguments: [
        ("go about", TerminalCommand.go("about")),
        ("go jogs/42?sort=asc", .go("jogs/42?sort=asc")),
        ("GO   convert/1/EUR/USD  ", .go("convert/1/EUR/USD")),
        ("go", .go("")),
    ])
    func go(line: String, expected: TerminalCommand) {
        #expect(TerminalCommand(line) == expected)
    }

    @Test("open is not a command: a button labelled \"Open first note\" is pressed by typing its label")
    func openIsALabel() {
        #expect(TerminalCommand("Open first note") == .named("Open first note"))
    }

    @Test("press names a button, whatever its label", arguments: [
        ("press go", TerminalCommand.press("go")), ("press Back", .press("Back")), ("PRESS  Reload rates ", .press("Reload rates")),
        ("press", .press("")),
    ])
    func press(line: String, expected: TerminalCommand) {
        #expect(TerminalCommand(line) == expected)
    }

    @Test("a label that starts with a command word is shadowed; others are not", arguments: [
        ("Go", true), ("Back", true), ("go home", true), ("Set up", true), ("Help", true), ("Quit", true),
        ("Close", false), ("Open first note", false), ("Reload rates", false), ("Gone", false),
    ])
    func shadowed(label: String, shadowed: Bool) {
        #expect(TerminalCommand.isShadowed(label) == shadowed)
    }

    @Test("synonyms for back, help and quit", arguments: [
        ("b", TerminalCommand.back), ("back", .back), ("BACK", .back),
        ("h", .help), ("help", .help), ("?", .help),
        ("q", .quit), ("quit", .quit), ("exit", .quit), ("  Quit ", .quit),
        ("menu", .menu("")), ("m", .menu("")), ("menu 2", .menu("2")), ("MENU Jogs", .menu("Jogs")), ("logout", .logout),
    ])
    func synonyms(line: String, expected: TerminalCommand) {
        #expect(TerminalCommand(line) == expected)
    }

    @Test("an empty or blank line redraws", arguments: ["", "   "])
    func empty(line: String) {
        #expect(TerminalCommand(line) == .redraw)
    }

    @Test("anything else names a button by id or label, as typed", arguments: [
        ("close", "close"), ("Visit the project site", "Visit the project site"), ("a = b", "a = b"),
    ])
    func named(line: String, name: String) {
        #expect(TerminalCommand(line) == .named(name))
    }

    @Test("the help text lists every command")
    func helpText() {
        for word in ["<number>", "press <button>", "set <field> <value>", "set <password>", "go <route>", "menu", "menu <entry>", "logout",
                     "back", "help", "quit", "Ctrl-C"] {
            #expect(TerminalCommand.helpText.contains(word), "missing \(word)")
        }
    }
}
