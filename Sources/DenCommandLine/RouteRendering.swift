import DenHost
import DenKit
import DenSupport
import DenTerminalText

/// `den render <route>`: opens the route in a new session and prints its screen, as text or as
/// Screen JSON. `den-commands`'s `RenderCommand` and `den`'s fast path both end here.
package enum RouteRendering {
    /// Prints the screen; the exit status is 1 when no module serves the route, the module cannot
    /// build it, or its screen failed (a host screen or errors), else 0. A module call that passes
    /// the call limit ends the process at once with status 1 and the error on standard error:
    /// the watchdog's give-up action for a one-shot process (`CallHandOff(ending:)`).
    package static func render(_ route: String, json: Bool, runtime: DenRuntime) throws -> Int32 {
        let session = runtime.makeSession(handOff: CallHandOff(ending: stalledCallEnding))
        // The terminal's values, as den run kept them (read only when a module reads one).
        TerminalValues(runtime: runtime, session: session.id).attach()
        let view = session.open(route)
        if json {
            print(String(decoding: try WireFormat.encode(view.screen), as: UTF8.self))
        } else {
            print(TextRenderer().render(view.screen).text)
            for url in view.openURLs { print("Open in your browser: \(ModuleText.singleLine(url))") }
        }
        return view.isHostScreen || !view.errors.isEmpty ? ExitStatus.failure : 0
    }

    static let stalledCallEnding = ProcessEnding(status: ExitStatus.failure, consequence: "den render ends here, with no screen") { error in
        "Error: \(error). Give it longer with --call-timeout, or see the module's log (--log-level debug).\n"
    }
}
