import CDenABI
@testable import DenHost
import DenKit
@testable import DenTerminal
@testable import DenTerminalText
import DenTestSupport
import Foundation
import Testing

/// A module with a form, registered in-process (no .so), so the terminal's field handling can be
/// driven through a real `NavigationSession`. It echoes the fields of every action it receives.
final class FormInstance: ModuleInstance {
    let fieldID: String
    var received: [String: String] = [:]

    init(fieldID: String) { self.fieldID = fieldID }

    func handle(_ event: ModuleEvent) throws -> ModuleReply {
        if case .action(_, let fields) = event { received = fields }
        let echo = received.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return ModuleReply(screen: Screen(title: "Form", elements: [
            .field(Field(id: fieldID, label: "Name", value: "Ada")),
            .field(Field(id: "pin", label: "PIN", kind: .password)),
            .field(Field(id: "currency", label: "Currency", value: "EUR", kind: .choice, options: ["EUR", "USD"])),
            .button(Button(id: "send", label: "Send", role: .primary)),
            .text("received: \(echo)"),
        ]))
    }
}

/// A runtime with one in-process module serving `form`.
enum InProcessModule {
    static func formRuntime(fieldID: String = "name") throws -> (TemporaryDirectory, DenRuntime) {
        let temp = try TemporaryDirectory("den-terminal-form")
        let runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [], bundledDirectory: nil, cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data")))
        try #require(runtime.installInProcess(ModuleDefinition(id: "form", version: "1.0.0", summary: "A form", routes: [
            RouteDefinition("form") { _ in FormInstance(fieldID: fieldID) },
        ])).error == nil)
        return (temp, runtime)
    }
}

@Suite("TerminalSession with a form")
struct TerminalFormTests {
    let temp: TemporaryDirectory
    let runtime: DenRuntime
    let terminal: TerminalSession

    init() throws {
        (temp, runtime) = try InProcessModule.formRuntime()
        terminal = TerminalSession(session: runtime.makeSession())
    }

    @Test("the form's fields are drawn, the password masked, the button numbered")
    func drawsForm() {
        let text = terminal.start(at: "form").text

        #expect(text.contains("Name [name]: Ada"))
        #expect(text.contains("PIN [pin]:"))
        #expect(text.contains("one of: EUR USD"))
        #expect(text.contains("[1] Send"))
    }

    @Test("set redraws the screen with the new value and says how to send it")
    func setRedraws() {
        _ = terminal.start(at: "form")

        let text = terminal.handle(line: "set name Grace Hopper").text

        #expect(text.contains("Name [name]: Grace Hopper"))
        #expect(text.hasSuffix("(name set; press a button to send it)"))
    }

    @Test("pressing a button sends the screen's values with the edits on top")
    func sendMergesEdits() {
        _ = terminal.start(at: "form")
        _ = terminal.handle(line: "set NAME Grace")
        _ = terminal.handle(line: "pin=1234")

        let text = terminal.handle(line: "1").text

        #expect(text.contains("received: currency=EUR name=Grace pin=1234"))
        #expect(!text.contains("PIN [pin]: 1234"), "the password is masked when drawn")
    }

    @Test("edits are forgotten once the module has redrawn the screen")
    func editsReset() {
        _ = terminal.start(at: "form")
        _ = terminal.handle(line: "set name Grace")
        _ = terminal.handle(line: "send")

        let text = terminal.handle(line: "send").text

        #expect(text.contains("received: currency=EUR name=Ada pin="))
    }

    @Test("a choice accepts an option in any case and stores it as spelled by the module")
    func choiceNormalised() {
        _ = terminal.start(at: "form")
        _ = terminal.handle(line: "set currency usd")

        #expect(terminal.handle(line: "send").text.contains("currency=USD"))
    }

    @Test("a value that is not one of the choices is refused, listing the options")
    func choiceRefused() {
        _ = terminal.start(at: "form")

        let text = terminal.handle(line: "set currency GBP").text

        #expect(text == "'GBP' is not a choice for currency. Choose one of: EUR USD.")
    }

    @Test("an unknown field is refused, listing the fields")
    func unknownField() {
        _ = terminal.start(at: "form")

        #expect(terminal.handle(line: "set age 3").text == "There is no field 'age'. Fields: name, pin, currency.")
    }
}

@Suite("TerminalSession messages are sanitized")
struct TerminalSessionSanitizingTests {
    @Test("field ids a module chooses cannot inject escapes through the terminal's own messages")
    func fieldIDsInMessages() throws {
        let evil = "name\u{1B}]0;pwned\u{07}"
        let (temp, runtime) = try InProcessModule.formRuntime(fieldID: evil)
        defer { withExtendedLifetime(temp) {} }
        let terminal = TerminalSession(session: runtime.makeSession())
        _ = terminal.start(at: "form")

        let outputs = [terminal.handle(line: "set nosuchfield 1").text,
                       terminal.handle(line: "set \(evil) x").text]

        for text in outputs {
            #expect(!text.unicodeScalars.contains("\u{1B}"), "\(text.debugDescription)")
            #expect(!text.unicodeScalars.contains("\u{07}"), "\(text.debugDescription)")
        }
    }
}
