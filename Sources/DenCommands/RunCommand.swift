import DenTerminalText
import ArgumentParser
import DenCommandLine
import DenHost
import DenMetrics
import DenTerminal
import Foundation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Use the app in the terminal: numbered actions, `press <button>`, `set <field> <value>`, `go <route>`, `back`, `quit`.",
        discussion: """
        On a terminal: line editing and history (arrows, Ctrl-A/Ctrl-E), colour (not with NO_COLOR), \
        text wrapped to the window's width. Reads commands from standard input, so it can be \
        scripted: printf 'go about\\nquit\\n' | den run
        """)

    @OptionGroup var host: HostOptions

    @OptionGroup var watching: WatchOptions

    @Option(name: .customLong("metrics-file"), help: ArgumentHelp("On exit, write the session's figures there in Prometheus text, as den serve --metrics serves them (docs/OBSERVABILITY.md).", valueName: "path"))
    var metricsFile: String?

    @Argument(help: "The first screen's route (default: main, or about when no module serves main).")
    var route: String?

    func run() throws {
        // Someone at the screen reads the screen: log lines go to a file it names at exit.
        let environment = ProcessInfo.processInfo.environment
        var logPath: String?
        if LogFile.suitsTerminal(environment: environment) {
            let path = LogFile.defaultPath(environment: environment)
            if let problem = LogFile.redirect(to: path) {
                FileHandle.standardError.write(Data("Warning: den run logs to standard error: it could not open \(path) (\(problem)); set DEN_LOG_FILE to a writable file\n".utf8))
            } else {
                logPath = path
            }
        }
        // Grants are read when a module's call first needs one, not at load: the terminal opens
        // storage only once its session runs (docs/PERMISSIONS.md, "One-shot commands").
        let runtime = try host.makeRuntime(oneShot: true)
        let metrics = metricsFile.map { _ in HostMetrics() }
        if let metrics {
            metrics.attach(runtime)
            runtime.observe(metrics)
        }
        defer {
            if let metricsFile, let metrics { Self.write(metrics, to: metricsFile) }
            if let logPath, LogFile.problemCount > 0 {
                print("den logged \(LogFile.problemCount) warning(s) or error(s) to \(logPath)")
            }
        }
        let interrupts = InterruptForwarder()
        let style = TerminalStyle.detect()
        let notice = WaitNotice(style: style)
        // The terminal says what it waits for after half a second (the host's default is 2 s).
        var policy = runtime.configuration.callPolicy
        policy.slowNotice = WaitNotice.delay
        // The runtime's session store: route guards read the user that auth.login set there.
        // The session's steps (and so its module calls) run on its lane, so that a call the
        // watchdog gives up (past the limit, or Ctrl-C) leaves the lane's thread behind, not this
        // one, which goes on reading the keyboard.
        let handOff = CallHandOff()
        let session = NavigationSession(registry: runtime.registry, policy: policy, handOff: handOff, logger: runtime.logger,
                                        interruption: interrupts.interruption, onSlowCall: { call, elapsed in
            notice.callIsSlow(call, elapsed: elapsed)
        }, sessions: runtime.sessions, callObserver: runtime.callObserver, appName: { [runtime] in runtime.appName })
        // The terminal's `session.*` values come from the last run and are kept after each step.
        let values = TerminalValues(runtime: runtime, session: session.id)
        values.attach()
        var kept: [String: [String: String]]?
        let lane: SessionLane
        do { lane = try SessionLane(session: session, handOff: handOff) } catch {
            FileHandle.standardError.write(Data("Error: den run could not start its session's thread: \(error)\n".utf8))
            throw ExitCode(ExitStatus.failure)
        }
        let terminal = TerminalSession(lane: lane, renderer: TextRenderer(style: style),
                                       columns: { TerminalWidth.current() })
        let editor = LineEditor()
        let watch = watching.watch ? TerminalHotSwap.start(runtime, terminal: terminal, options: watching.watcherOptions,
                                                           prompt: editor.isInteractive ? "den> " : nil) : nil
        defer { watch?.stop() }

        /// One step, with Ctrl-C interrupting module calls; what was typed during a slow call is
        /// reported, never applied to the screen that follows.
        func step(_ body: () -> TerminalSession.Output) -> TerminalSession.Output {
            var output = TerminalHotSwap.drawing.withLock { interrupts.whileBusy(body) }
            kept = values.keep(after: kept)
            if let typed = notice.stepEnded() {
                output.text += "\n\n" + terminal.ignoredTyping(typed)
            }
            return output
        }

        let first = route ?? runtime.homeRoute
        print(step { terminal.start(at: first) }.text)
        fflush(nil) // a program driving den through a pipe sees each screen as soon as it is drawn
        // A script (standard input not a terminal) fails, exit 1, if any of its screens failed —
        // a route no module serves, a screen that could not be built — as `den render` does.
        let scripted = isatty(STDIN_FILENO) != 1
        var scriptFailed = session.current?.isHostScreen ?? false
        while true {
            if editor.isInteractive { print("") }
            guard let line = editor.readLine(prompt: "den> ") else { break }
            if !editor.isInteractive { print("\n> \(terminal.echo(of: line))") }
            if terminal.mayRemember(line) { editor.remember(line) }
            var output = step { terminal.handle(line: line) }
            if let prompt = output.secretPrompt {
                let secret = editor.readSecret(prompt: prompt, interrupts: interrupts)
                if !editor.isInteractive { print("\n> (hidden)") }
                output = step { terminal.enterSecret(secret) }
            }
            print(output.text)
            fflush(nil)
            if session.current?.isHostScreen == true { scriptFailed = true }
            if output.quit { break }
        }
        if scripted, scriptFailed { throw ExitCode(ExitStatus.failure) }
    }

    /// The figures at exit; a failure is said, never fatal (the session already ended well).
    static func write(_ metrics: HostMetrics, to path: String) {
        do {
            try Data(metrics.exposition().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            FileHandle.standardError.write(Data("Warning: den run could not write its metrics to \(path): \(error.localizedDescription)\n".utf8))
        }
    }
}
