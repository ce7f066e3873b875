import DenTestSupport
import Foundation
import Testing

/// `den render` runs module calls on its main thread, timed by the watchdog like every call: for
/// this one-shot process, the watchdog's give-up action ends it with the error.
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
