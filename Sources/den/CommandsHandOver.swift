import DenCommandLine
import DenHost
#if canImport(Glibc)
import DenLibraryClients
import DenSupport
import Glibc
#endif

/// `den-commands`: the same command line with every command, beside `den` (in a build folder and in
/// `<prefix>/bin` alike).
enum CommandsHandOver {
    static let file = "den-commands"

    /// Runs `den-commands` in this process's place with the same arguments (`arguments[0]` too, so
    /// help and errors still say `den`); returns only if it cannot.
    static func replaceProcess(_ arguments: [String]) -> Never {
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        let path: String
        if let layout = InstallLayout.current {
            path = layout.executableDirectory.appendingPathComponent(file).path
            execv(path, pointers)
        } else if let typed = arguments.first, let slash = typed.lastIndex(of: "/") {
            // No /proc: beside the path den was started by; never a bare name in the current folder.
            path = String(typed[...slash]) + file
            execv(path, pointers)
        } else {
            path = file
            execvp(file, pointers) // started through PATH: den-commands is found the same way
        }
        let reason = String(cString: strerror(errno))
        StandardStream.error.write("den: cannot run \(path) (\(reason)). It carries every command but `den render`; build it with Scripts/build.sh (it goes beside den), or install den again with Scripts/install.sh.\n")
        exit(ExitStatus.failure)
    }
}
