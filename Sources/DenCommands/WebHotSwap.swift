import DenHost
import DenHotSwap
import DenWeb
import Foundation

/// `den serve --watch` and `den dev`: swaps changed plugins in, tells every open page (server-sent
/// events: pages of a swapped module reload, errors show as a banner) and the terminal.
enum WebHotSwap {
    /// `swappedIn`: each file that now serves (so `den serve` on PostgreSQL can publish it).
    static func start(_ runtime: DenRuntime, events: DevEvents, options: FileChangeWatcher.Options,
                      swappedIn: @escaping @Sendable (URL, String?) -> Void = { _, _ in }) -> PluginFolderWatch {
        let watch = PluginFolderWatch(runtime: runtime, options: options) { report in
            switch report.outcome {
            case .unchanged:
                return
            case .swapped, .installed:
                events.clearProblem()
                events.swapped(report.moduleID.map { [$0] } ?? [])
                print("hot swap: \(report.description)")
                swappedIn(report.file, report.moduleID)
            case .refused(let error):
                events.report(problem: error.description)
                print("Error: \(error.description)")
            }
            fflush(nil)
        }
        do {
            try watch.start()
            print(WatchOptions.startLine(runtime, mode: watch.mode))
        } catch {
            // The server runs on without hot swap; the user learns why and what to do.
            events.report(problem: "--watch is off: \(error)")
            print("Error: --watch is off: \(error)")
        }
        return watch
    }
}
