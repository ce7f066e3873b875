import ArgumentParser
import DenHost
import DenHotSwap
import Foundation

/// `--watch` and how it notices changes; shared by `den run`, `den serve` and `den dev`.
struct WatchOptions: ParsableArguments {
    @Flag(help: "Development: watch the plugin folders and hot-swap a plugin file when it changes (docs/HOT_SWAP.md).")
    var watch = false

    @Option(name: .customLong("watch-mode"), help: ArgumentHelp(
        "How --watch notices a change: automatic (inotify, else polling), inotify, or polling (e.g. on a network file system).",
        valueName: "mode"))
    var watchMode: String = "automatic"

    @Option(name: .customLong("watch-debounce"), help: ArgumentHelp(
        "Milliseconds a changed file must stay unchanged before it is loaded (default 100).", valueName: "ms"))
    var debounceMilliseconds = 100

    func validate() throws {
        guard FileChangeWatcher.Mode(rawValue: watchMode) != nil else {
            throw ValidationError("--watch-mode '\(watchMode)' is not a mode; use automatic, inotify or polling")
        }
        guard (10...10_000).contains(debounceMilliseconds) else {
            throw ValidationError("--watch-debounce \(debounceMilliseconds) must be 10 to 10000 milliseconds")
        }
    }

    var watcherOptions: FileChangeWatcher.Options {
        FileChangeWatcher.Options(mode: FileChangeWatcher.Mode(rawValue: watchMode) ?? .automatic,
                                  debounce: .milliseconds(debounceMilliseconds))
    }

    /// The line `--watch` prints when it starts, naming what it watches and how.
    static func startLine(_ runtime: DenRuntime, mode: FileChangeWatcher.Mode) -> String {
        let folders = runtime.searchedFolders.map(\.path).joined(separator: ", ")
        return "Watching plugin folders (\(mode.rawValue)): \(folders.isEmpty ? "none" : folders)"
    }
}
