import DenTestSupport
import Foundation
import Synchronization
import Testing

/// A module that breaks the ABI's rules, loaded into the real `den` binary: what the user sees.
@Suite("den against a module that breaks the rules")
struct RuleBreakerEndToEndTests {
    @Test("den plugins prints a module's summary sanitised: no escape sequence reaches the terminal")
    func sanitisedSummary() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureRuleBreaker"])
        let result = try den.run(["plugins", "--plugin-dir", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Breaks rules ^[[2J^[]0;pwned^G on purpose"), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(!result.stdout.contains("\u{07}"))
    }

    @Test("a builder that faults kills den (in-process code cannot be survived), and the report starts by naming the module and the call")
    func faultNamed() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureRuleBreaker"])
        let result = try den.run(["render", "build-faults", "--no-default-modules", "--plugin-dir", folder.path])
        #expect(result.status == 11, "SIGSEGV, passed on to the runtime's handler: \(result.status)")
        #expect(result.stderr.hasPrefix("\nden: module 'rule-breaker': the builder of route 'build-faults' crashed den"),
                "\(result.stderr.prefix(400))")
        #expect(result.stdout.isEmpty)
    }

    @Test("an action that never returns is given up after --call-timeout; the session goes on")
    func callTimeout() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureRuleBreaker"])
        let result = try den.run(["run", "about", "--plugin-dir", folder.path, "--call-timeout", "3"],
                                 input: "go hangs-on-tap\ntap\nclose\nquit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("module 'rule-breaker' did not return from handle(action 'tap')"), "\(result.stdout)")
        #expect(result.stdout.contains("About Den\n=========\n[ERROR]"), "back on the previous screen, with the banner")
        #expect(result.stderr.contains("did not return from handle(action 'tap')"), "the log names the module and the call")
        #expect(result.stdout.hasSuffix("Bye.\n"))
    }

    @Test("a call timeout that is not a number of seconds is refused before anything loads", arguments: ["soon", "0", "-1", "7200"])
    func badCallTimeout(value: String) throws {
        let result = try DenCommand().run(["render", "about", "--call-timeout=\(value)"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("is not a number of seconds between 0.1 and 3600"), "\(result.stderr)")
    }

    @Test("Ctrl-C while a module hangs returns to the previous screen; den keeps running")
    func controlC() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureRuleBreaker"])
        let process = try den.start(["run", "about", "--plugin-dir", folder.path, "--call-timeout", "600"])
        defer { if process.isRunning { process.terminate() } }

        // Collect standard error as it comes, to see the "waiting for" notice.
        let stderrText = Mutex("")
        process.errors.readabilityHandler = { handle in
            let chunk = String(decoding: handle.availableData, as: UTF8.self)
            stderrText.withLock { $0 += chunk }
        }
        process.send(Data("go hangs\n".utf8))
        let deadline = Date().addingTimeInterval(20)
        while !stderrText.withLock({ $0.contains("(waiting for module 'rule-breaker': handle(appear)") }), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(stderrText.withLock { $0 }.contains("Ctrl-C gives up on it"), "no notice: \(stderrText.withLock { $0 })")
        process.interrupt() // SIGINT, as Ctrl-C sends
        let stdoutText = Mutex("")
        process.output.readabilityHandler = { handle in
            let chunk = String(decoding: handle.availableData, as: UTF8.self)
            stdoutText.withLock { $0 += chunk }
        }
        defer { process.output.readabilityHandler = nil }
        process.send(Data("close\n".utf8))
        let backBy = Date().addingTimeInterval(20)
        while !stdoutText.withLock({ $0.contains("> close") }), Date() < backBy { Thread.sleep(forTimeInterval: 0.05) }
        let stdout = stdoutText.withLock { $0 }
        #expect(process.isRunning, "den did not survive Ctrl-C during a call: \(stdout)")
        #expect(stdout.contains("was interrupted in handle(appear) after"), "\(stdout)")
        #expect(stdout.contains("About Den"))
        // After the interrupted call, Ctrl-C at the prompt still ends den.
        process.interrupt()
        let endBy = Date().addingTimeInterval(10)
        while process.isRunning, Date() < endBy { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!process.isRunning, "den ignored Ctrl-C at the prompt after an interrupted call")
        process.errors.readabilityHandler = nil
    }

    @Test("Ctrl-C at the prompt ends den, as in any terminal program")
    func controlCAtPrompt() throws {
        let den = try DenCommand()
        let process = try den.start(["run", "about", "--plugins", "about"])
        defer { if process.isRunning { process.terminate() } }
        process.errors.readabilityHandler = { _ = $0.availableData } // read and dropped, so den never blocks on it
        defer { process.errors.readabilityHandler = nil }
        // Wait until the first screen is drawn: den is then waiting for a line.
        let seen = Mutex("")
        process.output.readabilityHandler = { handle in
            let chunk = String(decoding: handle.availableData, as: UTF8.self)
            seen.withLock { $0 += chunk }
        }
        defer { process.output.readabilityHandler = nil }
        let deadline = Date().addingTimeInterval(20)
        while !seen.withLock({ $0.contains("[2] Close") }), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(seen.withLock { $0 }.contains("[2] Close"), "den never drew its first screen")
        process.interrupt()
        let exited = Date().addingTimeInterval(10)
        while process.isRunning, Date() < exited { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!process.isRunning, "den kept running after Ctrl-C at the prompt")
        if !process.isRunning { #expect(process.terminationStatus == 130) }
    }
}
