import ArgumentParser
import DenHost
import DenTerminal
import Foundation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Use the app in the terminal: numbered actions, `set <field> <value>`, `go <route>`, `back`, `quit`.",
        discussion: "Reads commands from standard input, so it can be scripted: printf 'go about\\nquit\\n' | den run")

    @OptionGroup var host: HostOptions

    @Argument(help: "The first screen's route (default: main, or about when no module serves main).")
    var route: String?

    func run() throws {
        let runtime = try host.makeRuntime()
        let interrupts = InterruptForwarder()
        let session = runtime.makeSession(interruption: interrupts.interruption) { call, elapsed in
            // Standard error, so a script reading the screens from standard output is undisturbed.
            let line = "(waiting for \(call) — \(ModuleCallRunner.format(elapsed)) so far; Ctrl-C gives up on it)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        let terminal = TerminalSession(session: session)
        let interactive = isatty(STDIN_FILENO) == 1
        let first = route ?? runtime.homeRoute
        print(interrupts.whileBusy { terminal.start(at: first) }.text)
        fflush(nil) // a program driving den through a pipe sees each screen as soon as it is drawn
        // A script whose first route no module serves must fail (exit 1), like `den render`.
        if !interactive, (try? runtime.registry.resolve(first).get()) == nil { throw ExitCode(ExitStatus.failure) }
        while true {
            if interactive {
                print("\nden> ", terminator: "")
                fflush(nil)  // flushes every stream; naming `stdout` is not concurrency-safe in Swift 6
            }
            guard let line = readLine() else { break }
            if !interactive { print("\n> \(line)") }
            let output = interrupts.whileBusy { terminal.handle(line: line) }
            print(output.text)
            fflush(nil)
            if output.quit { return }
        }
    }
}
