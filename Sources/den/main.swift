import DenCommandLine
import DenWorker
#if canImport(Glibc)
import Glibc
#endif

// `den`: `den render …` runs here, in a process that loads neither Foundation nor the command
// line's parser; every other command, and any `render` the fast path leaves alone (help, an
// unknown option, a bad value), runs in `den-commands` beside it, which parses the same arguments
// with swift-argument-parser (docs/START_PATH.md, "den render").
let arguments = CommandLine.arguments
// `den worker`: an isolated module's process, started by den itself (docs/ISOLATION.md).
if let status = WorkerCommand.run(arguments.dropFirst()) {
    exit(status)
}
if let request = RenderRequest(arguments.dropFirst()) {
    exit(request.run())
}
CommandsHandOver.replaceProcess(arguments)
