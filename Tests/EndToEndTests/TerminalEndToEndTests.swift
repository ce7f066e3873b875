import DenTestSupport
import Foundation
import Testing

/// `den run` in a real terminal (tmux): width, colour, line editing, passwords, waiting.
@Suite("den run in a terminal (tmux)")
struct TerminalEndToEndTests {
    /// The prompt that ends every step (tmux drops its trailing space); the n-th one means n
    /// steps are done.
    static let prompt = "den>"

    @Test("a 50-column pane: every line fits, currency codes are never split")
    func width() throws {
        let den = try DenCommand()
        let pane = try TmuxPane(den: den, ["run", "main", "--plugins", "main"], columns: 50,
                                stderrToFile: den.temp.path("stderr.txt"))
        try pane.waitFor(Self.prompt)
        try pane.send("help", "Enter")
        try pane.waitFor(Self.prompt, count: 2)
        let screen = try pane.screen(joined: true)
        // -J joins what the terminal wrapped: a line longer than 50 means den drew past the edge.
        let long = screen.split(separator: "\n").filter { $0.count > 50 }
        #expect(long.isEmpty, "lines wider than the pane: \(long)")
        let words = Set(screen.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
        for code in ["HKD", "USD", "EUR", "ZAR", "JPY"] { #expect(words.contains(code), "\(code) split or missing") }
    }

    @Test("colour on a terminal; none with NO_COLOR")
    func colour() throws {
        let den = try DenCommand()
        let coloured = try TmuxPane(den: den, ["run", "about", "--plugins", "about"], columns: 80,
                                    stderrToFile: den.temp.path("stderr.txt"))
        let escapes = try coloured.waitFor("the first screen", escapes: true) { $0.contains(Self.prompt) }
        #expect(escapes.contains("\u{1B}[1mAbout Den"), "the title is bold: \(escapes.prefix(200).debugDescription)")
        #expect(!escapes.contains("*"), "no asterisks for emphasis on a colour terminal")

        let plain = try TmuxPane(den: den, ["run", "about", "--plugins", "about"], columns: 80, environment: ["NO_COLOR": "1"],
                                 stderrToFile: den.temp.path("stderr-plain.txt"))
        let text = try plain.waitFor("the first screen", escapes: true) { $0.contains(Self.prompt) }
        #expect(!text.contains("\u{1B}["), "NO_COLOR: \(text.prefix(200).debugDescription)")
        #expect(text.hasPrefix("About Den"))
    }

    @Test("line editing: arrows move in the line, Ctrl-A goes to its start, ↑ recalls the last line")
    func lineEditing() throws {
        let den = try DenCommand()
        let pane = try TmuxPane(den: den, ["run", "main", "--plugins", "about,main"], columns: 80,
                                stderrToFile: den.temp.path("stderr.txt"))
        try pane.waitFor(Self.prompt)
        // "go aout", three steps left, insert "b": "go about".
        try pane.type("go aout")
        try pane.send("Left", "Left", "Left")
        try pane.type("b")
        try pane.send("Enter")
        try pane.waitFor(Self.prompt, count: 2)
        var screen = try pane.screen()
        #expect(screen.contains("About Den"), "\(screen)")
        #expect(!screen.contains("Unknown command"))

        // "back", then "about" with "go " put in front by Ctrl-A.
        try pane.send("back", "Enter")
        try pane.waitFor(Self.prompt, count: 3)
        try pane.type("about")
        try pane.send("C-a")
        try pane.type("go ")
        try pane.send("Enter")
        try pane.waitFor(Self.prompt, count: 4)
        screen = try pane.screen()
        #expect(screen.components(separatedBy: "About Den\n").count - 1 == 2, "\(screen)")

        // ↑ twice recalls "back" (the line before the last).
        try pane.send("Up", "Up", "Enter")
        try pane.waitFor(Self.prompt, count: 5)
        screen = try pane.screen()
        #expect(screen.components(separatedBy: "den> back").count - 1 == 2, "history recalled `back`: \(screen)")
        #expect(!screen.contains("^[["), "no raw escape sequences: \(screen)")
    }

    @Test("a password is typed without being shown, and reaches the module")
    func password() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureSecretForm"])
        let pane = try TmuxPane(den: den, ["run", "secret-form", "--plugin-dir", folder.path, "--plugins", "secret-form"],
                                columns: 80, stderrToFile: den.temp.path("stderr.txt"))
        try pane.waitFor(Self.prompt)
        try pane.send("set pin", "Enter")
        try pane.waitFor("PIN (not shown):")
        try pane.type("s3cret")
        try pane.send("Enter")
        try pane.waitFor(Self.prompt, count: 2)
        try pane.send("show", "Enter")
        let screen = try pane.waitFor("Received a PIN of 6 characters.")
        #expect(!screen.contains("s3cret"), "the password was shown: \(screen)")
        #expect(screen.contains("PIN [pin]: ******"))
        // Not in the history either: ↑ brings back `show` and `set pin`, never the password.
        try pane.send("Up", "Up")
        let recalled = try pane.waitFor("the recalled line") { $0.hasSuffix("den> set pin\n") }
        #expect(!recalled.contains("s3cret"))
    }

    @Test("a slow call: the terminal names the module and call and says Ctrl-C cancels the wait; keys typed meanwhile are reported, not applied")
    func slowCall() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["DenFixtureSecretForm"])
        // The fixture's Wait lasts until this file exists: the test ends each wait, not a clock.
        let release = den.temp.path("release")
        let pane = try TmuxPane(den: den, ["run", "slow-form", "--plugin-dir", folder.path, "--plugins", "secret-form"],
                                columns: 80, environment: ["DEN_FIXTURE_RELEASE": release.path])
        try pane.waitFor(Self.prompt)
        try pane.send("wait", "Enter")
        let notice = try pane.waitFor("module 'secret-form': handle(action 'wait')", within: 30)
        // Den wraps the notice to the width: compare it as one line.
        #expect(notice.replacingOccurrences(of: "\n", with: " ").contains("Ctrl-C gives up the wait, den keeps running"), "\(notice)")
        // Typed during the wait: "2" would press Other, which would wait again.
        try pane.send("2", "Enter") // in the terminal's input once tmux returns
        #expect(FileManager.default.createFile(atPath: release.path, contents: nil))
        let after = try pane.waitFor("the report of ignored keys", within: 30) { $0.hasSuffix(Self.prompt + "\n") && $0.components(separatedBy: Self.prompt).count >= 3 }
        #expect(after.contains("The wait is over."))
        let joined = try pane.screen(joined: true)
        #expect(joined.replacingOccurrences(of: "\n", with: " ").contains("ignored what you typed while den waited: \"2\""), "\(joined)")
        #expect(joined.components(separatedBy: "Press Wait.").count - 1 == 1, "the keys were not applied as a command")

        // Ctrl-C during a wait gives up the call; den keeps running; at the prompt it ends den.
        try pane.send("wait", "Enter")
        try pane.waitFor("module 'secret-form': handle(action 'wait')", count: 2, within: 30)
        try pane.send("C-c")
        try pane.waitFor(Self.prompt, count: 3, within: 30)
        #expect(try pane.screen().replacingOccurrences(of: "\n", with: " ").contains("was interrupted in handle(action 'wait')"))
        try pane.send("C-c")
        try pane.waitFor("[den exited 130]", within: 30)
    }
}

@Suite("den run: host screens and the back stack")
struct HostScreenBackStackEndToEndTests {
    @Test("a Not found screen is never an entry of the back stack")
    func notFoundNotPushed() throws {
        let result = try DenCommand().run(["run", "about", "--plugins", "about"], input: "go nowhere\ngo about\nback\nback\nquit\n")
        #expect(result.status == 1, "a script that met a Not found screen fails: \(result.stderr)")
        #expect(!result.stdout.contains("back: nowhere"), "\(result.stdout)")
        let steps = result.stdout.components(separatedBy: "\n> ")
        #expect(steps.count == 6)
        if steps.count == 6 {
            #expect(steps[3].hasPrefix("back\nAbout Den"), "back from About returns to About, not to Not found")
            #expect(steps[4].contains("nothing to go back to"))
        }
    }
}

@Suite("den run at a terminal keeps log lines off the screen")
struct TerminalLogFileEndToEndTests {
    @Test("warnings go to the log file, never between the prompts; on exit den says how many went there")
    func logsToAFile() throws {
        let den = try DenCommand()
        let log = den.temp.path("state/den.log")
        // Every module call is "slow" past 1 ms: each one logs a warning.
        let pane = try TmuxPane(den: den, ["run", "about", "--plugins", "about,main", "--slow-call-ms", "1"], columns: 100,
                                environment: ["DEN_LOG_FILE": log.path, "JOURNAL_STREAM": ""])
        try pane.waitFor(TerminalEndToEndTests.prompt)
        try pane.send("go main", "Enter")
        try pane.waitFor(TerminalEndToEndTests.prompt, count: 2)
        let during = try pane.screen()
        #expect(!during.contains("slow module call"), "a log line on the screen: \(during)")
        try pane.send("quit", "Enter")
        let screen = try pane.waitFor("[den exited 0]")
        let written = try String(contentsOf: log, encoding: .utf8)
        #expect(written.contains("slow module call: module 'main': the builder of route 'main'"), "\(written)")
        let count = written.split(separator: "\n").filter { $0.contains(" warning ") || $0.contains(" error ") }.count
        #expect(count >= 1, "\(written)")
        let joined = try pane.screen(joined: true)
        #expect(joined.contains("den logged \(count) warning(s) or error(s) to \(log.path)"), "\(joined)\n\(written)")
        #expect(!screen.contains("slow module call"))
    }
}
