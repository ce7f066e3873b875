import DenHost
import DenKit
@testable import DenTerminal
@testable import DenTerminalText
import DenTestSupport
import Foundation
import Testing

/// A real runtime loading a private copy of the bundled About plugin.
struct AboutRuntime {
    let temp: TemporaryDirectory
    let runtime: DenRuntime

    init() throws {
        temp = try TemporaryDirectory("den-terminal")
        let plugins = try temp.folder("plugins")
        try temp.copy(try BuildProducts.require(BuildProducts.library("AboutModule")), into: plugins)
        runtime = DenRuntime(configuration: HostConfiguration(
            pluginDirectories: [plugins], cacheDirectory: temp.path("cache"), dataDirectory: temp.path("data")))
        runtime.loadPlugins()
    }

    func terminal() -> TerminalSession {
        TerminalSession(session: runtime.makeSession())
    }
}

@Suite("TerminalSession against the real About plugin")
struct TerminalSessionTests {
    let about: AboutRuntime

    init() throws {
        about = try AboutRuntime()
    }

    @Test("the About plugin loads and is the only active module")
    func pluginLoaded() {
        #expect(about.runtime.registry.plugins.map(\.id) == ["about"])
        #expect(about.runtime.registry.routes.map(\.pattern) == ["about"])
    }

    @Test("starting at about shows About Den, the loaded module and numbered actions")
    func startAtAbout() {
        let output = about.terminal().start(at: "about")
        let lines = output.text.split(separator: "\n").map(String.init)

        #expect(!output.quit)
        #expect(lines.first == "About Den")
        #expect(lines.contains("DEN"))
        #expect(lines.contains("(Version 1.0.0)"))
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("- about 1.0.0") })
        #expect(lines.contains("[1] Visit the project site"))
        #expect(lines.contains("[2] Close"))
        #expect(!output.text.contains("[3]"))
        #expect(output.text.contains("— about · module about"), "the footer names the route and the module")
    }

    @Test("choosing the website action prints the address to open", arguments: ["1", "website", "Visit the project site"])
    func website(line: String) {
        let terminal = about.terminal()
        _ = terminal.start(at: "about")

        let output = terminal.handle(line: line)

        #expect(output.text.contains("Open in your browser: https://github.com/den-swift/den"))
        #expect(output.text.hasPrefix("About Den"), "the same screen is drawn again above the address")
        #expect(!output.quit)
    }

    @Test("the address is printed only for the step that opened it")
    func websiteOnce() {
        let terminal = about.terminal()
        _ = terminal.start(at: "about")
        _ = terminal.handle(line: "1")

        #expect(!terminal.handle(line: "").text.contains("Open in your browser"))
    }

    @Test("close on the first screen keeps it and says there is nothing to go back to", arguments: ["close", "2", "CLOSE"])
    func closeAtFirstScreen(line: String) {
        let terminal = about.terminal()
        _ = terminal.start(at: "about")

        let output = terminal.handle(line: line)

        #expect(output.text.hasPrefix("About Den"))
        #expect(output.text.contains("(This is the first screen: there is nothing to go back to.)"))
    }

    @Test("back on the first screen gives the same notice")
    func backAtFirstScreen() {
        let terminal = about.terminal()
        _ = terminal.start(at: "about")

        #expect(terminal.handle(line: "back").text.contains("nothing to go back to"))
    }

    @Test("go to an unknown route shows the Not found screen naming the route, with a way back")
    func goNowhere() {
        let terminal = about.terminal()
        _ = terminal.start(at: "about")

        let output = terminal.handle(line: "go nowhere")
        let lines = output.text.split(separator: "\n").map(String.init)

        #expect(lines.first == "Not found")
        #expect(lines.contains { $0.hasPrefix("[ERROR]") && $0.contains("\"nowhere\"") })
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces) == "[1] about — module about" }, "the available screens are offered by number")
        #expect(output.text.replacingOccurrences(of: "\n", with: " ").contains("— nowhere · back: About Den"),
                "Back is named by the screen's title: \(output.text)")
    }

    @Test("from Not found, the numbered route leads to About, and Not found is not kept to go back to")
    func leaveNotFound() {
        let terminal = about.terminal()
        _ = terminal.start(at: "nowhere")

        #expect(terminal.handle(line: "1").text.hasPrefix("About Den"))
        let back = terminal.handle(line: "back").text
        #expect(back.hasPrefix("About Den"))
        #expect(back.contains("nothing to go back to"))
    }

    @Test("back from Not found returns to the screen it was opened from; close there has nowhere to go")
    func closeGoesBack() {
        let terminal = about.terminal()
        _ = terminal.start(at: "about")
        _ = terminal.handle(line: "go nowhere")
        let back = terminal.handle(line: "back").text
        #expect(back.hasPrefix("About Den"))
        #expect(!back.contains("· back:"), "Not found was the only screen above About")

        _ = terminal.handle(line: "go nowhere")
        let opened = terminal.handle(line: "go about").text
        #expect(opened.replacingOccurrences(of: "\n", with: " ").contains("· back: About Den"), "\(opened)")
        #expect(!opened.contains("back: nowhere"))
        #expect(terminal.handle(line: "close").text.hasPrefix("About Den"))
    }

    @Test("an out-of-range number says which numbers exist", arguments: [0, 3, 99, -1])
    func outOfRange(number: Int) {
        let terminal = about.terminal()
        _ = terminal.start(at: "about")

        let output = terminal.handle(line: "\(number)")

        #expect(output.text == "There is no action \(number): choose 1–2.")
        #expect(!output.quit)
    }

    @Test("a number before anything is shown says the screen has no numbered actions")
    func numberBeforeStart() {
        #expect(about.terminal().handle(line: "1").text == "There is no action 1: this screen has no numbered actions.")
    }

    @Test("set on a screen without fields says so", arguments: ["set name Ada", "name=Ada"])
    func setWithoutFields(line: String) {
        let terminal = about.terminal()
        _ = terminal.start(at: "about")

        #expect(terminal.handle(line: line).text == "This screen has no fields.")
    }

    @Test("go without a route asks for one")
    func goWithoutRoute() {
        let terminal = about.terminal()
        _ = terminal.start(at: "about")

        #expect(terminal.handle(line: "go").text.contains("Say which route to open"))
    }

    @Test("an unknown word is reported, sanitized, with a pointer to help")
    func unknownCommand() {
        let terminal = about.terminal()
        _ = terminal.start(at: "about")

        let text = terminal.handle(line: "dance\u{1B}[2J").text

        #expect(text == "Unknown command 'dance^[[2J'. Type `help` for the commands.")
    }

    @Test("help prints the command list; an empty line redraws the current screen")
    func helpAndRedraw() {
        let terminal = about.terminal()
        let first = terminal.start(at: "about")

        let help = terminal.handle(line: "help").text
        #expect(help.hasPrefix(TerminalCommand.helpText))
        #expect(help.contains("Den — menu\n  [1] About"), "help ends with the app's menu: \(help)")
        #expect(terminal.handle(line: "").text == first.text)
    }

    @Test("menu lists the loaded modules' entries; menu <number> or <title> opens one")
    func menu() {
        let terminal = about.terminal()
        _ = terminal.start(at: "nowhere")
        let menu = terminal.handle(line: "menu").text
        #expect(menu.hasPrefix("Den — menu\n  [1] About\n"), "\(menu)")
        #expect(!menu.contains("Log in"), "no loaded module serves the login route")
        #expect(terminal.handle(line: "menu 1").text.hasPrefix("About Den"))
        _ = terminal.handle(line: "go nowhere")
        #expect(terminal.handle(line: "m about").text.hasPrefix("About Den"))
        let unknown = terminal.handle(line: "menu 7").text
        #expect(unknown.hasPrefix("There is no menu entry '7'."), "\(unknown)")
        #expect(unknown.contains("[1] About"))
    }

    @Test("quit ends the session", arguments: ["quit", "q", "exit"])
    func quit(line: String) {
        let terminal = about.terminal()
        _ = terminal.start(at: "about")

        let output = terminal.handle(line: line)

        #expect(output.quit)
        #expect(output.text == "Bye.")
    }
}
