import DenHost
import DenKit
@testable import DenTerminal
@testable import DenTerminalText
import Testing

@Suite("Drawing to the terminal's width")
struct TerminalWidthTests {
    @Test("the window's width wins over COLUMNS, which wins over the fallback", arguments: [
        (Int?.some(50), String?.some("120"), 50), (nil, "120", 120), (nil, " 90 ", 90), (nil, "wide", 76), (nil, nil, 76), (0, nil, 76),
    ])
    func widthRule(window: Int?, columns: String?, expected: Int) {
        #expect(TerminalWidth.resolve(windowColumns: window, columnsVariable: columns) == expected)
    }

    /// A screen with every element made long.
    static let busyScreen = Screen(title: "A title long enough to need more than one line at forty columns", elements: [
        .heading("A heading that is also much longer than forty columns wide"),
        .text("Body text " + String(repeating: "word ", count: 20), style: .emphasis),
        .field(Field(id: "from", label: "From currency", value: "USD", kind: .choice,
                     options: ["AUD", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "EUR", "GBP", "HKD", "HUF", "IDR", "ILS"])),
        .field(Field(id: "note", label: "A note with a long label", value: "and a value of several words that runs on")),
        .button(Button(id: "go", label: "A button whose label goes on and on past the edge", role: .primary)),
        .link(Link(label: "A link with a long label", route: "somewhere/far/away/in/the/routes")),
        .list(ItemList(title: "Items", items: [ItemList.Item(title: "An item", detail: "with a detail that is long too", route: "x")])),
        .table(Table(columns: ["Currency", "Rate per euro", "Reference date"], rows: [["HKD", "8.4512", "2026-10-02"]])),
        .banner(Banner(.warning, "A warning banner that says something long enough to be wrapped")),
    ])

    @Test("every line of a busy screen fits the width; no word is split", arguments: [40, 50, 76])
    func everyLineFits(width: Int) {
        let text = TextRenderer(width: width).render(Self.busyScreen).text
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines.filter { $0.count > width })")
        let words = Set(text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
        for word in ["HKD", "EUR", "ILS", "somewhere/far/away/in/the/routes", "8.4512"] { #expect(words.contains(word), "\(word) split") }
    }

    @Test("a table too wide for the terminal is drawn one row at a time")
    func narrowTable() {
        let text = TextRenderer(width: 30).render(Screen(title: "T", elements: [
            .table(Table(columns: ["Currency", "Rate per euro", "Reference date"], rows: [["HKD", "8.4512", "2026-10-02"]])),
        ])).text
        #expect(text.contains("- Currency: HKD\n  Rate per euro: 8.4512\n  Reference date: 2026-10-02"), "\(text)")
    }

    @Test("the footer, notes and help follow the session's width")
    func sessionWidth() throws {
        let about = try AboutRuntime()
        let terminal = TerminalSession(session: about.runtime.makeSession(), columns: { 40 })
        for output in [terminal.start(at: "about"), terminal.handle(line: "help"), terminal.handle(line: "back"),
                       terminal.handle(line: "frobnicate the widget with a long command")] {
            let long = output.text.split(separator: "\n").filter { $0.count > 40 }
            #expect(long.isEmpty, "\(long)")
        }
    }

    @Test("colour follows the no-color.org rules: a terminal, TERM not dumb, NO_COLOR unset", arguments: [
        ([String: String](), true, false),
        (["TERM": "xterm"], true, true),
        (["TERM": "xterm"], false, false),
        (["TERM": "dumb"], true, false),
        (["TERM": "xterm", "NO_COLOR": "1"], true, false),
        (["TERM": "xterm", "NO_COLOR": ""], true, true),
        (["TERM": "xterm", "NO_COLOR": "1", "FORCE_COLOR": "1"], true, true),
    ])
    func colourRule(environment: [String: String], terminal: Bool, colour: Bool) {
        #expect(TerminalStyle.detect(environment: environment, outputIsTerminal: terminal).colour == colour)
    }
}
