import DenTestSupport
import Foundation
import Testing

/// `den render` runs module calls on its only thread, under the call alarm: a call past the call
/// limit ends the process with the error, and nothing else ends it early.
@Suite("den render and a module call that never returns")
struct RenderCallLimitEndToEndTests {
    static let stalls: [(route: String, call: String)] = [
        ("build-hangs", "the builder of route 'build-hangs'"),
        ("hangs", "handle(appear)"),
    ]

    @Test("the call limit ends den render with status 1, the error on standard error and nothing on standard output",
          arguments: stalls, [BuildProducts.den, BuildProducts.denCommands])
    func endsAtTheLimit(stall: (route: String, call: String), executable: URL) throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureRuleBreaker"])
        let start = Date()
        let result = try den.run(["render", stall.route, "--no-default-modules", "--plugin-dir", folder.path, "--call-timeout", "1"],
                                 executable: executable)
        let took = Date().timeIntervalSince(start)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no screen: \(result.stdout)")
        #expect(result.stderr == "Error: module 'rule-breaker' did not return from \(stall.call) within 1.0 s (the call limit, --call-timeout); "
            + "den render ends here, with no screen. Give it longer with --call-timeout, or see the module's log (--log-level debug).\n",
            "\(result.stderr)")
        #expect(took >= 1 && took < 20, "ended by the limit: \(took) s")
    }

    /// The alarm's signal, DEN_CALL_ALARM_SIGNAL.
    static var alarmSignal: Int32 { __libc_current_sigrtmax() - 2 }

    /// True once the process has a handler for `signal` (its SigCgt mask in /proc).
    static func catches(_ signal: Int32, pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }

    @Test("once armed, the alarm's signal from anything but its timer is ignored: den render goes on to the limit")
    func straySignal() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureRuleBreaker"])
        let process = try den.process(["render", "build-hangs", "--no-default-modules", "--plugin-dir", folder.path, "--call-timeout", "3"])
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The handler is installed at the first arming, inside the builder's call: wait for it,
        // since before then the signal's default action would end den (ABI.md says so).
        while !Self.catches(Self.alarmSignal, pid: process.processIdentifier), Date().timeIntervalSince(start) < 2.5 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(Self.catches(Self.alarmSignal, pid: process.processIdentifier), "armed within 2.5 s")
        kill(process.processIdentifier, Self.alarmSignal) // sent by hand: not from the timer, and before the deadline
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "not killed by the signal")
        #expect(process.terminationStatus == 1)
        #expect(Date().timeIntervalSince(start) >= 3, "ended by the limit, not by the signal")
        #expect(stderr.contains("did not return from the builder of route 'build-hangs' within 3.0 s"), "\(stderr)")
    }

    @Test("started with every signal blocked (a parent's mask is inherited), den render still ends at the limit")
    func blockedSignals() throws {
        let den = try DenCommand()
        let folder = try den.pluginFolder(["AboutModule", "DenFixtureRuleBreaker"])
        let launcher = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_BLOCK, set(signal.valid_signals()) - {signal.SIGKILL, signal.SIGSTOP}); os.execv(sys.argv[1], sys.argv[1:])"
        let denPath = try BuildProducts.require(BuildProducts.den).path
        let start = Date()
        let result = try den.run(["-c", launcher, denPath, "render", "build-hangs", "--no-default-modules", "--plugin-dir", folder.path, "--call-timeout", "1"],
                                 executable: URL(fileURLWithPath: "/usr/bin/python3"))
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("did not return from the builder of route 'build-hangs' within 1.0 s"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(start) < 30, "ended by the limit, not by the test's own timeout")
    }
}
