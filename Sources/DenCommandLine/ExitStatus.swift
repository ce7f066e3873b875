/// den's exit statuses; README "Exit status" documents the same list.
package enum ExitStatus {
    /// The command ran and failed: a route no module serves, no working plugin, an unreadable folder.
    package static let failure: Int32 = 1
    /// A usage mistake (ArgumentParser's own code for bad options): an unknown command or option,
    /// a bad value, `--plugins` naming a module that no plugin provides.
    package static let usage: Int32 = 64
    /// Ctrl-C at the prompt (set by CDenSignals: 128 + SIGINT).
    package static let interrupted: Int32 = 130
}
