import DenHost
import DenHotSwap
import DenTerminal
import DenTerminalText
import Foundation

/// `den run --watch`: swaps changed plugins in and redraws the screen; a refused version's
/// error is printed and the old version keeps serving.
enum TerminalHotSwap {
    /// Held while a step or a redraw uses the terminal session (the watcher has its own thread).
    static let drawing = NSLock()

    static func start(_ runtime: DenRuntime, terminal: TerminalSession, options: FileChangeWatcher.Options,
                      prompt: String?) -> PluginFolderWatch {
        let box = UncheckedTerminal(terminal)
        let watch = PluginFolderWatch(runtime: runtime, options: options) { report in
            if case .unchanged = report.outcome { return }
            let text: String
            if report.succeeded {
                text = drawing.withLock { box.terminal.redraw(after: "hot swap: \(report.description)").text }
            } else {
                text = TerminalText.messageLines("Error: \(report.description)", width: TerminalWidth.stated(descriptor: STDOUT_FILENO))
            }
            print("\n" + text)
            if let prompt { print("\n" + prompt, terminator: "") }
            fflush(nil)
        }
        do {
            try watch.start()
            FileHandle.standardError.write(Data((WatchOptions.startLine(runtime, mode: watch.mode) + "\n").utf8))
        } catch {
            // The app runs on without hot swap; the user learns why and what to do.
            FileHandle.standardError.write(Data("Error: --watch is off: \(error)\n".utf8))
        }
        return watch
    }
}

/// The terminal session used from the watcher's thread, under `TerminalHotSwap.drawing`.
private struct UncheckedTerminal: @unchecked Sendable {
    let terminal: TerminalSession
    init(_ terminal: TerminalSession) { self.terminal = terminal }
}
