import CDenSignals
import Glibc

/// What den says when module code kills it. A module runs in den's process: an `abort()` or a
/// fault in its constructor, entry point, builder, handler or export ends den, and the Swift
/// runtime's crash report names only addresses. Around each piece of module code the host sets
/// a note for the current thread, and a signal handler (C, `den_crash_note.h`) prints it before
/// the signal goes on to the handler that had it before, so the report starts with the module.
package enum CrashNote {
    private static let installed: Void = den_crash_note_install()

    /// Runs `body` with `note` as this thread's note ("module 'x' crashed den in …").
    package static func during<T, E: Error>(_ note: @autoclosure () -> String, _ body: () throws(E) -> T) throws(E) -> T {
        _ = installed
        let text = strdup(note())
        let previous = den_crash_note_swap(text)
        defer {
            den_crash_note_swap(previous)
            free(text)
        }
        return try body()
    }

    /// The note for loading `file`: its ELF constructors and `den_module_entry` run.
    package static func loading(_ file: String) -> String {
        "a module crashed den while loading \(file) (in its ELF constructors or den_module_entry). "
            + "Move the file out of the plugin folder, or start den with --plugins naming the modules to load; "
            + "den plugins --inspect <file> reads its manifest without running it."
    }

    /// The note for a call into a loaded module.
    package static func call(_ call: ModuleCall) -> String {
        "\(call) crashed den (the module's own code aborted or faulted). "
            + "Remove or rebuild that module; den plugins shows which file it came from."
    }
}
