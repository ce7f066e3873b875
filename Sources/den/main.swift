import DenCommandLine
#if canImport(Glibc)
import Glibc
#endif

// `den`: `den render …` runs here, in a process that loads neither Foundation nor the command
// line's parser; every other command, and any `render` the fast path leaves alone (help, an
// unknown option, a bad value), runs in `den-commands` beside it, which parses the same arguments
// with swift-argument-parser (docs/PERFORMANCE.md, "den render").
let arguments = CommandLine.arguments
if let request = RenderRequest(arguments.dropFirst()) {
    exit(request.run())
}
CommandsHandOver.replaceProcess(arguments)
