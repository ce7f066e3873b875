import DenTestSupport
import Foundation
import Testing

@Suite("den run, scripted through standard input")
struct RunEndToEndTests {
    @Test("numbered actions, links, go, back and quit work from a pipe")
    func scriptedSession() throws {
        let script = """
        go nowhere
        back
        1
        close
        quit
        """
        let result = try DenCommand().run(["run", "about", "--plugins", "about"], input: script + "\n")
        // The script opened a route no module serves, so it fails (exit 1) once its input ends.
        #expect(result.status == 1, "\(result.stderr)")
        let out = result.stdout
        #expect(out.hasPrefix("About Den"))
        #expect(out.contains("Not found"))
        #expect(out.contains("Open in your browser: https://"))
        #expect(out.contains("nothing to go back to"))
        #expect(out.hasSuffix("Bye.\n"))
    }

    @Test("end of input ends the session cleanly")
    func endOfInput() throws {
        let result = try DenCommand().run(["run", "about"], input: "")
        #expect(result.status == 0)
        #expect(result.stdout.contains("About Den"))
    }

    @Test("without a route, den run opens Main, or About when Main is not loaded")
    func homeRoute() throws {
        let den = try DenCommand()
        #expect(try den.run(["run"], input: "").stdout.hasPrefix("Currency converter"))
        #expect(try den.run(["run", "--plugins", "about"], input: "").stdout.hasPrefix("About Den"))
    }

    @Test("bad commands get a message and the session goes on")
    func badCommands() throws {
        let result = try DenCommand().run(["run", "about"], input: "99\nset amount 3\nfrobnicate\ngo\nquit\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("There is no action 99"))
        #expect(result.stdout.contains("This screen has no fields."))
        #expect(result.stdout.contains("Unknown command 'frobnicate'"))
        #expect(result.stdout.contains("Say which route to open"))
        #expect(result.stdout.contains("Bye."))
    }
}
